import { useNavigation } from '@remix-run/react';

/**
 * True while the page's form is being posted (the save or delete in flight): what the admin
 * forms' submit buttons show as pending. A GET navigation or a fetcher does not count.
 */
export function usePostPending(): boolean {
  const navigation = useNavigation();
  return navigation.state === 'submitting' && navigation.formMethod?.toUpperCase() === 'POST';
}
