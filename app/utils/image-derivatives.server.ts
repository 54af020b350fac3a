/**
 * Responsive derivatives of uploaded images (320/640/1280 wide, WebP + original format)
 * are produced here; the performance work fills this in with sharp.
 * For now the original is served as is.
 */
export async function prepareUploadedImage(_absolutePath: string): Promise<void> {
  return;
}
