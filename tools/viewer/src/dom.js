// The page's one DOM helper: a new element of `tag`, with a class and text when given, appended
// to `parent` when given.
export function element(tag, className, parent, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}
