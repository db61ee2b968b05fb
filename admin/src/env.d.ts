// Style sheets are imported for their side effect; Bun's bundler emits them as CSS files.
declare module "*.css";
