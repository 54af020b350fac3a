import { type FieldMetadata, getInputProps } from '@conform-to/react';

import { ErrorList } from '~/components/ui/field';

/** The corner radius as a 0–2 rem slider with named marks and the current value beside it. */
export function RadiusField({
  field,
  radius,
  onRadiusChange,
}: {
  field: FieldMetadata<number>;
  radius: number;
  onRadiusChange: (radius: number) => void;
}) {
  return (
    <div className="space-y-1.5">
      <div className="flex items-baseline justify-between">
        <label htmlFor={field.id} className="block text-sm font-medium">
          Corner radius
        </label>
        <output htmlFor={field.id} className="text-sm tabular-nums text-muted-foreground">
          {radius.toFixed(1)} rem
        </output>
      </div>
      <input
        {...getInputProps(field, { type: 'range' })}
        key={field.key}
        min={0}
        max={2}
        step={0.1}
        list="radius-marks"
        aria-describedby={`${field.id}-labels`}
        onChange={(event) => onRadiusChange(Number(event.currentTarget.value))}
        className="w-full accent-primary"
      />
      <datalist id="radius-marks">
        <option value="0" label="Square" />
        <option value="1" label="Rounded" />
        <option value="2" label="Pill" />
      </datalist>
      <div id={`${field.id}-labels`} className="flex justify-between text-xs text-muted-foreground">
        <span>Square</span>
        <span>Rounded</span>
        <span>Pill</span>
      </div>
      <ErrorList id={`${field.id}-error`} errors={field.errors} />
    </div>
  );
}
