// Account security: two-factor sign-in and sessions: their schemas and their calls of the route table (one module of calls.ts, loaded on its own by the
// API client when a door first makes one of them).
import { OtpDisableBody } from '../account';
import {
  OtpCodeBody,
  OtpEnableResponse,
  OtpSetupResponse,
  OtpStatusResponse,
  SessionEndBody,
  SessionEndResponse,
  SessionListResponse,
} from '../security';
import { Ok, call } from './common';

// ---- the calls ----
export const SECURITY_CALLS = {
  otpStatus: call({ method: 'GET', path: '/api/user/otp', response: OtpStatusResponse }),
  otpSetup: call({ method: 'POST', path: '/api/user/otp/setup', response: OtpSetupResponse }),
  otpEnable: call({ method: 'POST', path: '/api/user/otp/enable', body: OtpCodeBody, response: OtpEnableResponse }),
  otpDisable: call({ method: 'POST', path: '/api/user/otp/disable', body: OtpDisableBody, response: Ok }),
  sessionList: call({ method: 'GET', path: '/api/user/session', response: SessionListResponse }),
  sessionEnd: call({ method: 'POST', path: '/api/user/session/end', body: SessionEndBody, response: SessionEndResponse }),
  sessionEndOthers: call({ method: 'POST', path: '/api/user/session/end-others', response: SessionEndResponse }),
} as const;
