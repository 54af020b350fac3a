import { getFormProps, getInputProps, type SubmissionResult, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import { Form } from '@remix-run/react';

import { FormFailure } from '~/components/admin/form-alert';
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

/** Block a domain, block an account: two forms, told apart by their `intent`. */
export function BlockForms({ actionData }: { actionData: BlocksActionData | undefined }) {
  const pending = usePostPending();
  const [domainForm, domainFields] = useForm({
    id: 'block-domain',
    lastResult: actionData?.form === 'block-domain' ? actionData.result : null,
    constraint: getZodConstraint(BlockDomainSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: BlockDomainSchema }),
  });
  const [actorForm, actorFields] = useForm({
    id: 'block-actor',
    lastResult: actionData?.form === 'block-actor' ? actionData.result : null,
    constraint: getZodConstraint(BlockActorSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: BlockActorSchema }),
  });
  return (
    <div className="grid gap-6 md:grid-cols-2">
      <Card
        title="Block a domain"
        description="Refuses every account of that server (and its subdomains) and removes its followers."
      >
        <Form method="post" {...getFormProps(domainForm)} className="space-y-4">
          <FormFailure title="Failed to block" errors={domainForm.errors} />
          <input type="hidden" name="intent" value="block-domain" />
          <InputField
            label="Domain"
            field={{ id: domainFields.domain.id, errors: domainFields.domain.errors }}
            hint="For example mastodon.example"
            inputProps={{
              ...getInputProps(domainFields.domain, { type: 'text' }),
              autoComplete: 'off',
              spellCheck: false,
            }}
          />
          <SubmitButton pending={pending} pendingLabel="Blocking...">
            Block domain
          </SubmitButton>
        </Form>
      </Card>
      <Card
        title="Block an account"
        description="Refuses that account and removes it from the followers."
      >
        <Form method="post" {...getFormProps(actorForm)} className="space-y-4">
          <FormFailure title="Failed to block" errors={actorForm.errors} />
          <input type="hidden" name="intent" value="block-actor" />
          <InputField
            label="Account address"
            field={{ id: actorFields.actor.id, errors: actorFields.actor.errors }}
            hint="Its address on its server, e.g. https://mastodon.example/users/someone"
            inputProps={{
              ...getInputProps(actorFields.actor, { type: 'url' }),
              autoComplete: 'off',
              spellCheck: false,
            }}
          />
          <SubmitButton pending={pending} pendingLabel="Blocking...">
            Block account
          </SubmitButton>
        </Form>
      </Card>
    </div>
  );
}
