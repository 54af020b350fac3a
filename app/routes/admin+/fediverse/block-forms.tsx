import { getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react';
import { Form } from '@remix-run/react';
import type { z } from 'zod';

import { FormFailure } from '~/components/admin/form-alert';
import { useAdminForm } from '~/components/admin/upload-form';
import { usePostPending } from '~/components/admin/use-post-pending';
import { SubmitButton } from '~/components/ui/button';
import { Card } from '~/components/ui/card';
import { InputField } from '~/components/ui/field';
import { BlockActorSchema, BlockDomainSchema } from '~/schemas/fediverse';

/** What the action answers when a block form is refused: which form, and conform's reply. */
export type BlocksActionData = {
  form: 'block-domain' | 'block-actor';
  result: SubmissionResult<string[]>;
};

/** What tells the two block forms apart: what they post, check and say. */
type BlockFormSpec = {
  intent: BlocksActionData['form'];
  /** Either form's schema, read as the one field (and the intent) it checks. */
  schema: z.ZodType<Record<string, string>, z.ZodTypeDef, Record<string, string>>;
  name: 'domain' | 'actor';
  type: 'text' | 'url';
  title: string;
  description: string;
  label: string;
  hint: string;
  submit: string;
};

const BLOCK_FORMS: readonly BlockFormSpec[] = [
  {
    intent: 'block-domain',
    schema: BlockDomainSchema,
    name: 'domain',
    type: 'text',
    title: 'Block a domain',
    description:
      'Refuses every account of that server (and its subdomains) and removes its followers.',
    label: 'Domain',
    hint: 'For example mastodon.example',
    submit: 'Block domain',
  },
  {
    intent: 'block-actor',
    schema: BlockActorSchema,
    name: 'actor',
    type: 'url',
    title: 'Block an account',
    description: 'Refuses that account and removes it from the followers.',
    label: 'Account address',
    hint: 'Its address on its server, e.g. https://mastodon.example/users/someone',
    submit: 'Block account',
  },
];

/** One block form in its card: a real post with its `intent`, checked as typed with conform. */
function BlockForm({
  spec,
  actionData,
  pending,
}: {
  spec: BlockFormSpec;
  actionData: BlocksActionData | undefined;
  pending: boolean;
}) {
  const [form, fields] = useAdminForm({
    id: spec.intent,
    lastResult: actionData?.form === spec.intent ? actionData.result : null,
    schema: spec.schema,
  });
  const field = fields[spec.name];
  return (
    <Card title={spec.title} description={spec.description}>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <FormFailure title="Failed to block" errors={form.errors} />
        <input type="hidden" name="intent" value={spec.intent} />
        <InputField
          label={spec.label}
          field={{ id: field.id, errors: field.errors }}
          hint={spec.hint}
          inputProps={{
            ...getInputProps(field, { type: spec.type }),
            autoComplete: 'off',
            spellCheck: false,
          }}
        />
        <SubmitButton pending={pending} pendingLabel="Blocking...">
          {spec.submit}
        </SubmitButton>
      </Form>
    </Card>
  );
}

/** Block a domain, block an account: two forms, told apart by their `intent`. */
export function BlockForms({ actionData }: { actionData: BlocksActionData | undefined }) {
  const pending = usePostPending();
  return (
    <div className="grid gap-6 md:grid-cols-2">
      {BLOCK_FORMS.map((spec) => (
        <BlockForm key={spec.intent} spec={spec} actionData={actionData} pending={pending} />
      ))}
    </div>
  );
}
