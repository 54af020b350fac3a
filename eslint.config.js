import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import react from 'eslint-plugin-react';
import reactHooks from 'eslint-plugin-react-hooks';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import globals from 'globals';
import tseslint from 'typescript-eslint';

import dependencyDirection from './eslint.dependency-direction.js';

/**
 * A request body is read only through app/platform/request-body.server.ts (bounded, with its
 * 415/413/400 refusals and the body dropped before early answers): `request.formData()`,
 * `.json()`, `.text()`, `.arrayBuffer()`, `.blob()`, `.bytes()`, on the request or a clone of
 * it, and `request.body`, are errors anywhere else in app/.
 */
const BODY_METHODS = '/^(formData|json|text|arrayBuffer|blob|bytes)$/';
const REQUEST = '/^(request|req)$/';
const BODY_READ_MESSAGE =
  'Read request bodies with readForm/readJson/readMultipart (app/platform/request-body.server.ts).';
const bodyReadRestrictions = [
  `CallExpression[callee.property.name=${BODY_METHODS}][callee.object.name=${REQUEST}]`,
  `CallExpression[callee.property.name=${BODY_METHODS}][callee.object.property.name=${REQUEST}]`,
  `CallExpression[callee.property.name=${BODY_METHODS}][callee.object.callee.property.name='clone'][callee.object.callee.object.name=${REQUEST}]`,
  `MemberExpression[property.name='body'][object.name=${REQUEST}]`,
].map((selector) => ({ selector, message: BODY_READ_MESSAGE }));

/**
 * A route module exports only what Remix reads (types aside: they are erased). Anything else
 * belongs in a module of its own (schemas/ for texts and intents, components/ for parts), so a
 * reader of a route knows that every export is Remix's.
 */
const REMIX_EXPORTS =
  '/^(loader|action|meta|links|headers|handle|shouldRevalidate|ErrorBoundary|HydrateFallback|clientLoader|clientAction)$/';
const ROUTE_EXPORT_MESSAGE =
  'A route module exports only what Remix reads (loader, action, meta, links, headers, handle, ErrorBoundary, …); move this to a module of its own.';
const routeExportRestrictions = [
  `ExportNamedDeclaration > VariableDeclaration > VariableDeclarator > Identifier.id:not([name=${REMIX_EXPORTS}])`,
  `ExportNamedDeclaration > FunctionDeclaration > Identifier.id:not([name=${REMIX_EXPORTS}])`,
  'ExportNamedDeclaration > ClassDeclaration',
  `ExportNamedDeclaration[exportKind='value'] > ExportSpecifier[exportKind='value'] > Identifier.exported:not([name=${REMIX_EXPORTS}])`,
].map((selector) => ({ selector, message: ROUTE_EXPORT_MESSAGE }));

/** One style for loaders and actions: function declarations, never exported arrows (decision 052). */
const loaderStyleRestrictions = [
  {
    selector:
      'ExportNamedDeclaration > VariableDeclaration > VariableDeclarator[id.name=/^(loader|action)$/]',
    message:
      "Write a route's loader and action as function declarations: `export async function loader(...)` (decision 052).",
  },
];

/**
 * Route modules (decision 052): the files of a `+` folder (`admin+/tracks.tsx`), a folder
 * route's `route.tsx` (`admin+/settings/route.tsx`), and files directly in app/routes; not
 * the parts beside a folder route, `.server` modules or tests.
 */
const ROUTE_MODULES = [
  'app/routes/*.{ts,tsx}',
  'app/routes/*/route.{ts,tsx}',
  'app/routes/*+/*.{ts,tsx}',
  'app/routes/*+/*/route.{ts,tsx}',
];

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'build',
      'public/build',
      'data',
      'uploads',
      'test-results',
      'playwright-report',
      'demo/media',
      '.bench-tmp',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: {
      globals: { ...globals.browser, ...globals.node },
    },
    settings: { react: { version: 'detect' } },
    plugins: {
      react,
      'react-hooks': reactHooks,
      'jsx-a11y': jsxA11y,
      'simple-import-sort': simpleImportSort,
    },
    rules: {
      // Imports in one order everywhere: side effects, node:, packages, ~/ (the app), relative.
      'simple-import-sort/imports': [
        'error',
        { groups: [['^\\u0000'], ['^node:'], ['^@?\\w'], ['^~/'], ['^\\.']] },
      ],
      'simple-import-sort/exports': 'error',
      ...react.configs.recommended.rules,
      ...react.configs['jsx-runtime'].rules,
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      ...jsxA11y.configs.recommended.rules,
      'react/prop-types': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['warn', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['app/**/*.{ts,tsx}'],
    ignores: ['app/platform/request-body.server.ts', 'app/**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-syntax': ['error', ...bodyReadRestrictions] },
  },
  {
    // Route modules: the body rule, the exports rule and the loader style.
    files: ROUTE_MODULES,
    ignores: ['app/**/*.test.{ts,tsx}', 'app/routes/**/*.server.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...bodyReadRestrictions,
        ...routeExportRestrictions,
        ...loaderStyleRestrictions,
      ],
    },
  },
  {
    // Playwright fixtures call their callback `use`, which is not a React hook.
    files: ['tests/**/*.ts'],
    rules: {
      'react-hooks/rules-of-hooks': 'off',
      'no-empty-pattern': 'off',
    },
  },
  // routes -> services -> models -> schemas/types/utils; see the file for every rule.
  ...dependencyDirection,
);
