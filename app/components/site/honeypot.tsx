import { useId } from 'react';

import { HONEYPOT_FIELD } from '~/schemas/honeypot-field';

/**
 * A field people never see or fill in; bots that fill every input do. The server answers a
 * filled honeypot exactly like a success and stores nothing (app/services/public-forms.server.ts).
 */
export function Honeypot() {
  const id = useId();
  return (
    <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
      <label htmlFor={id}>Leave this field empty</label>
      <input
        id={id}
        type="text"
        name={HONEYPOT_FIELD}
        tabIndex={-1}
        autoComplete="off"
        defaultValue=""
      />
    </div>
  );
}
