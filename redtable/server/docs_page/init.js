// Starts Swagger UI on the API docs page (index.html beside this file). A file of its own, not an
// inline script: the server's Content-Security-Policy allows scripts from this origin only.
// URLs are relative to the page (/docs), so the docs work under a proxy's path prefix too.
"use strict";
window.addEventListener("load", () => {
  window.ui = window.SwaggerUIBundle({
    url: new URL("openapi.json", document.baseURI).href,
    dom_id: "#swagger-ui",
    deepLinking: true,
    validatorUrl: null, // the default sends the schema to an outside validator
    presets: [window.SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
  });
});
