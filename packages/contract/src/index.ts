export * from './catalogue/index.ts';
export * from './catalogue/system.ts';
export * from './constants.ts';
export * from './fields.ts';
export * from './resource.ts';
export * from './validation.ts';
export * from './wire.ts';
