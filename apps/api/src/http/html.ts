const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** Plain text as a safe HTML paragraph (until the Markdown renderer of the messaging core). */
export const textToHtml = (text: string) => (text.trim() === '' ? '' : `<p>${escapeHtml(text.trim()).replace(/\n/g, '<br>\n')}</p>`);
