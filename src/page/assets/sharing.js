// @ts-check
// Copying and sharing a link or a position: the clipboard where the
// browser has one, else the text selected in its field for the person to
// copy; the Web Share API first where there is one (phones).

/**
 * Copies `text`; on a browser without a clipboard, selects it in `field`
 * (an input) and asks the browser to copy. Resolves to true once copied,
 * false when the person must copy the selected text by hand.
 */
export function copyText(text, field) {
  const byHand = () => {
    if (field) { field.value = text; field.select(); }
    try { return Boolean(document.execCommand && document.execCommand("copy")); } catch (_) { return false; }
  };
  if (!navigator.clipboard) return Promise.resolve(byHand());
  return navigator.clipboard.writeText(text).then(() => true, byHand);
}

/**
 * Shares `url` with the Web Share API, or copies it (see `copyText`).
 * Resolves to "shared", "copied" or "select" (copy by hand).
 */
export function shareUrl(url, title, text, field) {
  const copy = () => copyText(url, field).then((copied) => (copied ? "copied" : "select"));
  if (!navigator.share) return copy();
  return navigator.share({ title, text, url }).then(
    () => "shared",
    (error) => (error && error.name === "AbortError" ? null : copy()),
  );
}
