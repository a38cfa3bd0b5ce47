import js from '@eslint/js';
import mocha from 'eslint-plugin-mocha';
import tseslint from 'typescript-eslint';

/**
 * The layers (docs/architecture.md): imports point down only. `domain` is pure; `lib` is the
 * platform; `store` holds statements on shared tables; `api`, `processors` and `workers` are the
 * roles and never import each other. Scripts and tests compose them and may import anything.
 */
const layer = (name) => ({
  regex: `(^|/)${name}/`,
  message: `the layer rule (docs/architecture.md) forbids importing ${name}/ here`,
});
const io = [
  'pg',
  'pg-listen',
  'pg-boss',
  'pg-cursor',
  'pg-query-stream',
  'kafkajs',
  'got',
  'ws',
  'koa',
  'nodemailer',
].map((name) => ({ regex: `^${name}(/|$)`, message: 'domain/ is pure: no I/O packages' }));
const nodeIo = ['fs', 'net', 'http', 'https', 'dns', 'child_process', 'fs/promises'].map((name) => ({
  regex: `^(node:)?${name}$`,
  message: 'domain/ is pure: no I/O modules',
}));
const forbid = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

export default tseslint.config(
  { ignores: ['node_modules/', '.stack/', 'dist/', '**/dist/', 'console/dist.*.tmp/', '.screenshots/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['domain/**/*.ts'],
    rules: forbid(...['lib', 'store', 'processors', 'workers', 'api', 'scripts'].map(layer), ...io, ...nodeIo),
  },
  {
    files: ['lib/**/*.ts'],
    rules: forbid(...['domain', 'store', 'processors', 'workers', 'api', 'scripts'].map(layer)),
  },
  { files: ['store/**/*.ts'], rules: forbid(...['processors', 'workers', 'api', 'scripts'].map(layer)) },
  { files: ['processors/**/*.ts'], rules: forbid(...['workers', 'api', 'scripts'].map(layer)) },
  { files: ['workers/**/*.ts'], rules: forbid(...['processors', 'api', 'scripts'].map(layer)) },
  { files: ['api/**/*.ts'], rules: forbid(...['processors', 'workers', 'scripts'].map(layer)) },
  {
    // Small files that do one thing: a source file over 400 lines is a file doing several.
    files: ['{api,lib,domain,store,processors,workers,scripts,clients,console}/**/*.{ts,tsx}'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
  {
    files: ['test/**/*.ts'],
    plugins: { mocha },
    rules: {
      'mocha/no-exclusive-tests': 'error',
      'mocha/no-pending-tests': 'error',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  { files: ['**/*.js', '**/*.mjs'], extends: [tseslint.configs.disableTypeChecked] },
  { files: ['**/*.mjs'], languageOptions: { globals: { console: 'readonly', process: 'readonly' } } },
);
