/** Style sheets imported for their side effect: esbuild bundles them into `main.css`. */
declare module '*.css';
