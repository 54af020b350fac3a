import { useNavigation } from '@remix-run/react';

/** True while the form with this `intent` is being submitted. */
export function usePendingIntent(intent: 'login' | 'register') {
  const navigation = useNavigation();
  return navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
}
