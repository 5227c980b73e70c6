// The web edition's one script. The book theme wires only the first button of each kind on a
// page: the menu (.primary-toggle) and the page's contents (.secondary-toggle) of the site
// header, which the book theme hides. The buttons a reader sees are in the article's header:
// each hands its click to the wired one, so the menu and the contents open at every width
// (as a drawer below 992 px, the theme's own behaviour).
document.addEventListener("DOMContentLoaded", () => {
  for (const kind of [".primary-toggle", ".secondary-toggle"]) {
    const [wired, ...visible] = document.querySelectorAll(kind);
    for (const button of visible) {
      button.addEventListener("click", (event) => {
        event.preventDefault();
        event.stopPropagation();
        wired.click();
      });
    }
  }
});
