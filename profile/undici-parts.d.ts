// undici's own modules that profile/undici.ts imports: CommonJS, without
// declarations of their own; profile/undici.ts gives each its type from undici's.
declare module 'undici/lib/dispatcher/agent.js' {
  const value: unknown;
  export default value;
}
declare module 'undici/lib/api/index.js' {
  const value: unknown;
  export default value;
}
declare module 'undici/lib/core/connect.js' {
  const value: unknown;
  export default value;
}
declare module 'undici/lib/dispatcher/dispatcher.js' {
  const value: unknown;
  export default value;
}
declare module 'undici/lib/core/errors.js' {
  const value: unknown;
  export default value;
}
declare module 'undici/lib/global.js' {
  const value: unknown;
  export default value;
}
declare module 'undici/lib/core/util.js' {
  const value: unknown;
  export default value;
}
