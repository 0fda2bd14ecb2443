// Boots the vendored ReDoc on /redoc (a static file: the CSP allows no inline script).
(function () {
  "use strict";
  var root = document.getElementById("redoc");
  window.Redoc.init(root.getAttribute("data-openapi"), { disableSearch: true }, root);
})();
