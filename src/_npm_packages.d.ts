// _npm_packages.js exports nothing; this keeps the type checker out of the packages' own types (some
// reference the DOM library).
export {};
