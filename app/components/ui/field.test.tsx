import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';

import { inputClass, InputField, SelectField, TextareaField } from './field';

describe('the labelled fields', () => {
  it('wire the label, the control and nothing else when the field is valid', () => {
    const html = renderToStaticMarkup(
      <InputField
        label="Title"
        field={{ id: 'f-title' }}
        inputProps={{ type: 'text', name: 'title', defaultValue: 'A' }}
      />,
    );
    expect(html).toBe(
      '<div class="space-y-1.5"><label for="f-title" class="block text-sm font-medium">Title</label>' +
        `<input type="text" name="title" id="f-title" class="${inputClass}" value="A"/></div>`,
    );
  });

  it('point aria-describedby at the errors and the hint, and mark the control invalid', () => {
    const html = renderToStaticMarkup(
      <TextareaField
        label="Excerpt"
        hint="Max 200 characters"
        field={{ id: 'f-excerpt', errors: ['Too long'] }}
        textareaProps={{ name: 'excerpt', rows: 2, 'aria-describedby': 'ignored' }}
      />,
    );
    expect(html).toContain(
      '<textarea name="excerpt" rows="2" aria-describedby="f-excerpt-error f-excerpt-hint" id="f-excerpt" aria-invalid="true"',
    );
    expect(html).toContain('<p id="f-excerpt-hint" class="text-xs text-muted-foreground">');
    expect(html).toContain('<ul id="f-excerpt-error"');
    expect(html).toContain('<li>Too long</li>');
  });

  it('append a className to the input class and to the wrapper', () => {
    const html = renderToStaticMarkup(
      <SelectField
        label="Type"
        field={{ id: 'f-type' }}
        className="flex-1"
        selectProps={{ name: 'type', className: 'font-mono' }}
      >
        <option value="Single">Single</option>
      </SelectField>,
    );
    expect(html).toContain('<div class="space-y-1.5 flex-1">');
    expect(html).toContain(`class="${inputClass} font-mono"`);
    expect(html).toContain('<option value="Single">Single</option></select>');
  });
});
