import { type FieldMetadata, getInputProps } from '@conform-to/react';

import { cn } from '~/utils/cn';

import { ErrorList } from './field';

/**
 * A conform field as a row of radio buttons in a `<fieldset>`, one per option, each
 * labelled from `labels`; the field's errors are listed under it and described by it.
 */
export function RadioGroup<T extends string>({
  legend,
  field,
  options,
  labels,
}: {
  legend: string;
  field: FieldMetadata<T>;
  options: readonly T[];
  labels: Record<T, string>;
}) {
  const errorId = `${field.id}-error`;
  return (
    <fieldset aria-describedby={field.errors?.length ? errorId : undefined}>
      <legend className="mb-2 text-sm font-medium">{legend}</legend>
      <div className="flex flex-wrap gap-2">
        {options.map((value) => (
          <label
            key={value}
            className={cn(
              'flex cursor-pointer items-center gap-2 rounded-md border border-input px-3 py-2 text-sm',
              'has-[:checked]:border-primary has-[:checked]:bg-primary/10',
              'has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
            )}
          >
            <input
              {...getInputProps(field, { type: 'radio', value })}
              key={`${field.key}-${value}`}
              className="accent-primary"
            />
            {labels[value]}
          </label>
        ))}
      </div>
      <ErrorList id={errorId} errors={field.errors} />
    </fieldset>
  );
}
