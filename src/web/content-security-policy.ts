// The Content-Security-Policy of every response (the API docs at /docs set their own). The web pages
// load one stylesheet, one script and an icon from /assets and nothing else: no inline script, no
// style attribute, no other origin. A report shows text from arbitrary pages; even if some of it ever
// escaped the templates, it could neither run script nor send data anywhere.
// No upgrade-insecure-requests: self-hosted servers often answer plain http on an intranet, where it
// would send every form and asset request to an https port nobody listens on.
export const contentSecurityPolicy = {
  defaultSrc: ["'none'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'"],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
  objectSrc: ["'none'"],
};
