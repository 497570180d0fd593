// Where focus starts on a page: the first page of a visit leaves it at the top, where the skip link is the first Tab
// stop; a page reached inside the portal moves it to the page's title, so a screen reader announces where the user is.

/** True until the first screen of this visit, public or signed in, has drawn. */
let first = true;

/** Records that a screen has drawn; answers whether one had drawn before it in this visit. */
export function screenDrawn(): boolean {
  const before = !first;
  first = false;
  return before;
}
