// Sign-in commands: login, logout, signup, whoami, and password reset-start / reset-finish.
import type { Command } from 'commander';
import type { Deps } from '../context';
import { addNoun, addVerb } from '../verb';
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

export function register(program: Command, deps: Deps): void {
  addVerb(program, login, deps);
  addVerb(program, logout, deps);
  addVerb(program, signup, deps);
  addVerb(program, whoami, deps);
  addNoun(
    program,
    deps,
    { name: 'auth', summary: 'Your sign-ins: one per server (API origin)', examples: ['portal auth status', 'portal auth status --json'] },
    [status, token, switchSignIn, sessions],
  );
  addNoun(
    program,
    deps,
    {
      name: 'password',
      summary: 'Reset a forgotten password',
      examples: ['portal password reset-start --email ada@example.com', 'portal password reset-finish --token "$TOKEN_FROM_THE_EMAIL"'],
    },
    [resetStart, resetFinish],
  );
}
