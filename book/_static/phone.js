// Phones (issue 20): the on-page contents drawer closes after a tap on one of its entries, and a
// tapped button's tooltip does not stay on screen over the search button.
document.addEventListener("click", (event) => {
  const link = event.target.closest(".bd-sidebar-secondary a, .bd-toc a");
  if (link && window.matchMedia("(max-width: 1199.98px)").matches) {
    const toggle = document.getElementById("pst-secondary-sidebar-checkbox");
    if (toggle && toggle.checked) toggle.checked = false;
    const dialog = link.closest("dialog");
    if (dialog && dialog.open) dialog.close();
  }
  const button = event.target.closest("[data-bs-toggle='tooltip'], .primary-toggle, .secondary-toggle, .btn");
  if (button) {
    if (window.bootstrap && window.bootstrap.Tooltip) {
      const tip = window.bootstrap.Tooltip.getInstance(button);
      if (tip) tip.hide();
    }
    document.querySelectorAll(".tooltip.show").forEach((t) => t.remove());
    if (typeof button.blur === "function") button.blur();
  }
});
