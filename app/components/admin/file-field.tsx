import { InputField } from '~/components/ui/field';

/** What the image inputs of the admin forms accept, and the hint that says so. */
const IMAGE_ACCEPT = 'image/jpeg,image/png,image/webp';
const IMAGE_HINT = 'JPEG, PNG or WEBP, at most 10 MB.';

type FileFieldProps = {
  /** The visible label (on edit it says that an empty input keeps the current file). */
  label: React.ReactNode;
  /** The input's id (the label's `htmlFor`; the hint and errors ids derive from it). */
  id: string;
  /** The multipart field name the server's upload parser reads. */
  name: string;
  accept: string;
  hint: React.ReactNode;
  /** From conform: the field's errors (rendered on the server too). */
  errors?: string[] | null;
  /** The current file on edit (a preview or its name), rendered right after the field. */
  current?: React.ReactNode;
};

/**
 * A labelled file input of the admin forms (blog, gallery, track), with its hint, its
 * errors and, on edit, what is there now. A plain input, posted as multipart.
 */
export function FileField({ label, id, name, accept, hint, errors, current }: FileFieldProps) {
  return (
    <>
      <InputField
        label={label}
        field={{ id, errors }}
        hint={hint}
        inputProps={{ type: 'file', name, accept }}
      />
      {current ?? null}
    </>
  );
}

/**
 * The image input of the gallery and blog forms: the multipart field `image` (id
 * `<form id>-image`), JPEG, PNG or WEBP.
 */
export function ImageField({
  formId,
  ...field
}: Pick<FileFieldProps, 'label' | 'errors' | 'current'> & { formId: string }) {
  return (
    <FileField
      {...field}
      id={`${formId}-image`}
      name="image"
      accept={IMAGE_ACCEPT}
      hint={IMAGE_HINT}
    />
  );
}
