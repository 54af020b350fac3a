import type { SubmissionResult } from '@conform-to/react';

import type { ErrorToast } from '~/types/toast';

/** What a page action returns when a public form fails (see app/services/public-forms.server.ts). */
export type PublicFormActionData = {
  intent: string;
  result: SubmissionResult<string[]>;
  toast: ErrorToast | null;
};

export function isPublicFormActionData(value: unknown): value is PublicFormActionData {
  return (
    typeof value === 'object' &&
    value !== null &&
    'intent' in value &&
    'result' in value &&
    typeof (value as { intent: unknown }).intent === 'string'
  );
}
