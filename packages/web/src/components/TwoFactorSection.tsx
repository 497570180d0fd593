// The account page's two-factor sign-in: turn on (QR code and the secret as text, confirmed by a code), the recovery
// codes shown once (copy, download), turn off with the password and a code. core's useTwoFactor holds the rules and the calls.
import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Box, Button, Paper, Stack, Typography } from '@mui/material';
import QRCode from 'qrcode';
import { SECURITY_MESSAGES } from '@portal/core';
import { useTwoFactor } from '@portal/core/react';
import { LightField } from './LightField';
import { FormFailure } from './FormFailure';

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  a.click();
  URL.revokeObjectURL(url);
}

export function TwoFactorSection() {
  const tf = useTwoFactor();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [qr, setQr] = useState<string | null>(null);
  useEffect(() => {
    if (tf.setup) void QRCode.toDataURL(tf.setup.uri, { margin: 1, width: 192 }).then(setQr);
    else setQr(null);
  }, [tf.setup]);
  const submit = (act: (c: string) => Promise<void>) => async (e: FormEvent) => {
    e.preventDefault();
    await act(code);
    setCode('');
  };
  const turnOff = async (e: FormEvent) => {
    e.preventDefault();
    await tf.turnOff({ code, password });
    setCode('');
    setPassword('');
  };
  const codeField = (
    <LightField label="Code" name="otp" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)} required />
  );
  return (
    <Paper component="section" aria-labelledby="two-factor-title" sx={{ p: 3, mt: 3 }}>
      <Typography variant="h2" id="two-factor-title" sx={{ mb: 1 }}>
        Two-factor sign-in
      </Typography>
      <Stack spacing={2}>
        <FormFailure message={tf.problem} />
        {tf.recovery ? (
          <>
            <Alert severity="success">{SECURITY_MESSAGES.otpEnabled}</Alert>
            <Box component="pre" aria-label="Recovery codes" sx={{ fontFamily: 'monospace', m: 0 }}>
              {tf.recovery.join('\n')}
            </Box>
            <Stack direction="row" spacing={1}>
              <Button onClick={() => void navigator.clipboard.writeText(tf.recovery!.join('\n'))}>Copy</Button>
              <Button onClick={() => download('portal-recovery-codes.txt', `${tf.recovery!.join('\n')}\n`)}>Download</Button>
              <Button variant="contained" onClick={tf.done}>
                I have kept them
              </Button>
            </Stack>
          </>
        ) : tf.enabled ? (
          <form onSubmit={turnOff} noValidate>
            <Stack spacing={2}>
              <Typography>On. Recovery codes left: {tf.recoveryLeft}. To turn it off, enter your password and a code.</Typography>
              <LightField
                label="Password"
                name="password"
                type="password"
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                required
              />
              {codeField}
              <Button type="submit" variant="outlined" color="error">
                Turn off
              </Button>
            </Stack>
          </form>
        ) : tf.setup ? (
          <form onSubmit={submit(tf.confirm)} noValidate>
            <Stack spacing={2}>
              <Typography>Scan the QR code with your authenticator app, or type the secret, then enter the code it shows.</Typography>
              {qr ? <img src={qr} alt="QR code for your authenticator app" width={192} height={192} /> : null}
              <Typography component="code" aria-label="Secret" sx={{ fontFamily: 'monospace' }}>
                {tf.setup.secret}
              </Typography>
              {codeField}
              <Button type="submit" variant="contained">
                Turn on
              </Button>
            </Stack>
          </form>
        ) : tf.enabled === false ? (
          <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
            <Typography>Off. With it on, signing in also needs a code from an authenticator app.</Typography>
            <Button variant="contained" onClick={() => void tf.start()}>
              Set up two-factor sign-in
            </Button>
          </Stack>
        ) : null}
      </Stack>
    </Paper>
  );
}
