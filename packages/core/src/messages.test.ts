import { describe, expect, it } from 'vitest';
import { COPIED_RESET_MS, MESSAGES, NOTIFY_MS } from './messages';

// Every text below is copied literally from SPEC.md: a typo in messages.ts fails here.
const SPEC_TEXTS: Array<[keyof typeof MESSAGES, string]> = [
  ['titleCreate', 'Please enter the title between 1 and 60 characters long'],
  ['titleRename', 'Title must be between 1 and 60 characters long'],
  ['integrationToken', 'Token must be between 1 and 10,000 characters long'],
  ['email', 'Invalid email address.'],
  ['username', 'Username must be alphanumeric, with dashes or underscores, and between 5 and 30 characters long.'],
  ['companyName', 'Name must be between 5 and 50 characters long.'],
  [
    'password',
    'Password must be 8-64 characters long, include an uppercase letter, a lowercase letter, a number, and a special character.',
  ],
  ['passwordMismatch', 'Passwords do not match.'],
  ['terms', 'You must agree to the privacy policy and terms of service.'],
  ['fillAllFields', 'Please fill out all fields'],
  ['selectUpload', 'Please select an upload for this request'],
  ['uploadNotFound', 'Selected upload not found'],
  ['generateFileNotFound', 'File for generating not found'],
  ['fileTooLarge', 'One or more files exceed the max size limit.'],
  ['invalidCredentials', 'Invalid credentials'],
  ['signupFailed', 'Sign up failed. Please try again.'],
  ['unexpected', 'An unexpected error occurred. Please try again.'],
  ['resetStarted', "If your email is registered, you'll receive instructions shortly."],
  ['passwordChanged', 'Password has been changed.'],
  ['tokenMissing', 'Token missing'],
  ['tokenExpired', 'Token expired'],
  ['fetchPermissions', 'Error fetching permissions'],
  ['createApiKey', 'Failed to create API key. Please try again.'],
  ['removeApiKey', 'Failed to remove API key. Please try again.'],
  ['renameApiKey', 'Failed to rename API key. Please try again.'],
  ['createProject', 'Failed to create project. Please try again.'],
  ['removeProject', 'Failed to remove project. Please try again.'],
  ['renameProject', 'Failed to rename project. Please try again.'],
  ['removeUpload', 'Failed to remove upload. Please try again.'],
  ['renameUpload', 'Failed to rename Upload. Please try again.'],
  ['removeModel', 'Failed to remove model. Please try again.'],
  ['renameModel', 'Failed to rename model. Please try again.'],
  ['removeRun', 'Failed to remove data transformation. Please try again.'],
  ['renameRun', 'Failed to rename transformation. Please try again.'],
  ['loadRun', 'Failed to load run data.'],
  ['loadQuote', 'Failed to load quote data.'],
  ['loadTransformations', 'Failed to load data transformations'],
  ['loadRequests', 'Failed to load requests'],
  ['createRequest', 'Failed to create request'],
  ['fetchUploads', 'Failed to fetch uploads.'],
  ['uploadFiles', 'Failed to upload files.'],
  ['uploadDataNotFound', 'Rend data not found for the selected run'],
  ['copyCode', 'Failed to copy code.'],
  ['copyToken', 'Failed to copy token.'],
  ['copyExample', 'Failed to copy example.'],
  ['noApiKeys', 'No API Keys Found'],
  ['noProjects', 'No Projects Found'],
  ['noUploads', 'No Uploads Found'],
  ['noModels', 'No Models Found'],
  ['noRequests', 'No Requests Found'],
  ['requestNotFound', 'Request not found'],
  ['integrationNotFound', 'Integration not found'],
  ['globalFallback', 'An unexpected error has occurred.'],
];

describe('messages', () => {
  it.each(SPEC_TEXTS)('%s reads as SPEC writes it', (key, text) => expect(MESSAGES[key]).toBe(text));

  it('fills the templated texts as SPEC writes them', () => {
    expect(MESSAGES.uploadSucceeded('data.json')).toBe('Uploading data.json completed successfully!');
    expect(MESSAGES.tooManyFiles(10)).toBe('You can only upload up to 10 files.');
    expect(MESSAGES.invalidFileType(['.json', '.py'])).toBe('Invalid file type. Allowed: .json, .py');
    expect(MESSAGES.planLimitInputs('Individual', 3)).toBe('Individual plans are limited to 3 input features');
    expect(MESSAGES.planLimitOutputs('Individual', 5)).toBe('Individual plans are limited to 5 output features');
    expect(MESSAGES.planLimitTarget('Individual', 1)).toBe('Individual plans are limited to 1 target size');
    expect(MESSAGES.enterpriseLimit(500)).toBe('500 is the initial limit, contact us for a limit increase at no cost');
  });

  it('keeps notifications for 20 s by default, 5 s for errors, 10 s for upload success; copied resets after 1 s', () => {
    expect(NOTIFY_MS).toEqual({ default: 20_000, error: 5_000, uploadSuccess: 10_000, confirm: 10_000 });
    expect(COPIED_RESET_MS).toBe(1_000);
  });
});
