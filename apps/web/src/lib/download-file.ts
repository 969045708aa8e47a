/**
 * Downloads through a temporary link with `download`: the signed link is same-origin, so the
 * browser saves the file instead of navigating, and no pop-up blocker stands in the way.
 */
export function downloadFile(url: string, fileName: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
}
