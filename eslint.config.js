// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/** A string that starts like an SQL statement (the verbs the code uses, in capitals). */
const sqlStart = '/^\\s*(SELECT|INSERT|UPDATE|DELETE|WITH|CREATE|ALTER|DROP|LOCK|TRUNCATE)\\s/';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/dist-ssr/**',
      // Copies of an earlier API build that bench/ab-cpu.ts and main-thread.ts compare against.
      'apps/api/dist-*/**',
      '.data/**',
      'playwright-report/**',
      'test-results/**',
      'bench/results/**',
      'bench/.build/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          noWarnOnMultipleProjects: true,
          project: [
            'packages/contract/tsconfig.json',
            'apps/api/tsconfig.json',
            'apps/web/tsconfig.json',
            'tsconfig.json',
          ],
        }),
      ],
    },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-self-import': 'error',
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // The contract is shared by the browser and the server: nothing from Node, nothing from the apps.
    files: ['packages/contract/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['node:*', '@portal/api*', '@portal/web*', 'fs', 'path', 'crypto'] },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Imports run one way: shared (components, lib, config, utils, locales) -> features -> app.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './apps/web/src/features/*',
              from: './apps/web/src/features/*',
              except: ['./${dirname}'],
              message: 'A feature never imports another feature.',
            },
            {
              target: [
                './apps/web/src/components',
                './apps/web/src/lib',
                './apps/web/src/config',
                './apps/web/src/utils',
              ],
              from: ['./apps/web/src/features', './apps/web/src/app'],
              message: 'Shared code never imports features or the app layer.',
            },
            {
              target: './apps/web/src/features',
              from: './apps/web/src/app',
              message: 'Features never import the app layer.',
            },
          ],
        },
      ],
      'no-restricted-imports': ['error', { patterns: ['@portal/api*', 'node:*'] }],
    },
  },
  {
    // Build configuration runs in Node, not in the browser.
    files: ['apps/web/*.config.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['@portal/api*'] }] },
  },
  {
    files: ['apps/api/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['@portal/web*'] }] },
  },
  {
    // The API's layers: a module's routes call services, never a repository (its own or another's).
    files: ['apps/api/src/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './apps/api/src/modules/*/routes.ts',
              from: './apps/api/src/modules/**/repository.ts',
              message: 'Routes call a service, never a repository (SQL stays behind the service).',
            },
          ],
        },
      ],
    },
  },
  {
    // Only repositories hold SQL (and db/: the connection, migrations, the seed). A statement is
    // found where it is written (a string or template starting with an SQL verb) and where it is
    // run (`.query(` or `.exec(` given a string or template directly).
    files: ['apps/api/src/**/*.ts'],
    ignores: ['apps/api/src/**/repository.ts', 'apps/api/src/db/**', 'apps/api/src/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[callee.property.name=/^(query|exec)$/][arguments.0.type=/^(Literal|TemplateLiteral)$/]',
          message: "SQL lives in the module's repository.ts: call a repository function instead.",
        },
        {
          selector: `Literal[value=${sqlStart}]`,
          message: "SQL lives in the module's repository.ts: move this statement there.",
        },
        {
          selector: `TemplateElement[value.raw=${sqlStart}]`,
          message: "SQL lives in the module's repository.ts: move this statement there.",
        },
      ],
    },
  },
);
