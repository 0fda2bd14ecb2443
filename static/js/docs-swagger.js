// Boots the vendored Swagger UI on /docs (a static file: the CSP allows no inline script).
(function () {
  "use strict";
  var root = document.getElementById("swagger-ui");
  window.SwaggerUIBundle({
    url: root.getAttribute("data-openapi"),
    dom_id: "#swagger-ui",
    presets: [window.SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    deepLinking: true,
    validatorUrl: null, // the default badge would ask validator.swagger.io
    showExtensions: true,
    showCommonExtensions: true,
  });
})();
