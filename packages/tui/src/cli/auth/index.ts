// Sign-in commands: login, logout, signup, whoami, and password reset-start / reset-finish.
import { commands, type NounOptions } from '../verb';
import * as login from './login';
import * as logout from './logout';
import * as signup from './signup';
import * as whoami from './whoami';
import * as status from './status';
import * as token from './token';
import * as switchSignIn from './switch';
import * as sessions from './sessions';
import * as resetStart from './reset-start';
import * as resetFinish from './reset-finish';

const authNoun: NounOptions = {
  name: 'auth',
  summary: 'Your sign-ins: one per server (API origin)',
  examples: ['portal auth status', 'portal auth status --json'],
};
const passwordNoun: NounOptions = {
  name: 'password',
  summary: 'Reset a forgotten password',
  examples: ['portal password reset-start --email ada@example.com', 'portal password reset-finish --token "$TOKEN_FROM_THE_EMAIL"'],
};

export const { register } = commands(
  login,
  logout,
  signup,
  whoami,
  [authNoun, [status, token, switchSignIn, sessions]],
  [passwordNoun, [resetStart, resetFinish]],
);
