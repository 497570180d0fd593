// Lint for the whole workspace: TypeScript rules, and no focused tests (.only) anywhere.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import cycles from './scripts/lint/no-cycle.mjs';

const focused = ['it', 'test', 'describe', 'suite'].map((object) => ({
  object,
  property: 'only',
  message: 'Focused tests (.only) must not be committed: they silently skip the rest of the suite.',
}));

const testCode = { group: ['@portal/testkit', '@portal/testkit/*', '**/test/*'], message: 'Product source must not import test code.' };
const serverCode = {
  group: ['@portal/server', '@portal/server/*'],
  message: 'The clients reach the server over its API only (the contract is in core).',
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.tools/**',
      '**/.portal-data/**',
      '**/test-results/**',
      '**/playwright-report/**',
      '**/.tmp/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      'no-restricted-properties': ['error', ...focused],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    // The rules of hooks everywhere React is used (core's hooks, both renderers): hooks called in order, effects
    // that list what they read.
    files: ['packages/{core,web,tui}/{src,test}/**/*.{ts,tsx}', 'packages/testkit/{src,test}/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // No import cycles (a module whose imports lead back to it): types go apart from the code. The packages, the
    // end-to-end tests, the benchmarks and the scripts alike.
    files: ['packages/*/{src,test}/**/*.{ts,tsx}', 'tests/**/*.ts', '{bench,deploy,scripts}/**/*.{ts,mjs}'],
    plugins: { cycles },
    rules: { 'cycles/no-cycle': 'error' },
  },
  {
    // Product source never reaches test code: not the test kit (which starts the server), not a package's test/
    // folder. Tests beside the code may.
    files: ['packages/server/src/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [testCode] }] },
  },
  {
    // ... and the clients reach the server over its API only.
    files: ['packages/{core,web,tui}/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [testCode, serverCode] }] },
  },
  {
    // A group of calls imports no other group, only what they all share (common.ts): a client that loads one group
    // (contract/load.ts) would build the other's schemas too.
    files: ['packages/core/src/contract/calls/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            testCode,
            serverCode,
            { group: ['./*', '!./common'], message: 'A group of calls imports only common.ts: each group is loaded on its own.' },
          ],
        },
      ],
    },
  },
  {
    // In test files any `.only` is a focus, however deep it sits (Playwright's test.describe.only, vitest's it.only.each).
    files: ['**/*.test.{ts,tsx,js,mjs}', '**/*.spec.{ts,tsx,js,mjs}', 'tests/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': ['error', { selector: "MemberExpression[property.name='only']", message: focused[0].message }],
    },
  },
);
