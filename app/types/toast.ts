/** A toast on screen (the toaster shows one at a time) and what code asks to show. */
export type ToastType = 'success' | 'error' | 'info';
export type ToastMessage = { id: string; type: ToastType; title: string; description?: string };
export type ToastInput = Omit<ToastMessage, 'id' | 'type'> & { id?: string; type?: ToastType };
