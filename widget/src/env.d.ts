// Vite turns a CSS import into the page's stylesheet.
declare module '*.css';
