// Style sheets imported for their side effect: Bun bundles them into app.css.
declare module '*.css'
