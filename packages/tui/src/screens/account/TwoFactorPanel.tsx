// Two-factor sign-in in the terminal: turn on (a QR code when the terminal has room for it, the secret and the
// otpauth URI as text, confirmed by a code), the ten recovery codes shown once (copy, save), turn off with the
// password and a code.
// core's useTwoFactor holds the rules and the calls.
import { useEffect, useMemo } from 'react';
import { Box, Text } from 'ink';
import { SECURITY_MESSAGES } from '@portal/core';
import { useNotify, useTwoFactor } from '@portal/core/react';
import { Form } from '../../components/Form';
import { QrCode, qrLines } from '../../components/QrCode';
import { useHelp, useNav } from '../../ui/context';
import { Outcome, SectionForm, formHelp, useOpenForm } from './panel';

/** The narrowest the text beside the QR code may be. */
const TEXT_MIN = 36;
/** The file the recovery codes are saved in. */
export const RECOVERY_FILE = 'portal-recovery-codes.txt';
const CODE = [{ key: 'code', label: 'Code' }];
const OFF = [{ key: 'password', label: 'Password', kind: 'password' as const }, ...CODE];

export function TwoFactorPanel({ rows }: { rows: number }) {
  const nav = useNav();
  const notify = useNotify();
  const tf = useTwoFactor();
  const form = useOpenForm(
    () => {
      if (tf.enabled === false) void tf.start();
    },
    tf.enabled !== undefined && !tf.recovery,
  );
  // Turned on or off: the form has done its work.
  const { close } = form;
  useEffect(() => close(), [tf.enabled, close]);
  const { claimEscape } = nav;
  const { done } = tf;
  useEffect(() => (tf.recovery ? claimEscape(done) : undefined), [tf.recovery, claimEscape, done]);
  useHelp(tf.recovery ? '↑↓ choose · Enter' : formHelp(form.open, tf.enabled ? 'turn off' : 'set up'));

  const setup = form.open ? tf.setup : null;
  const qr = useMemo(() => (setup ? qrLines(setup.uri) : []), [setup]);
  const width = nav.size.columns - nav.size.menu - 2;
  const qrFits = qr.length > 0 && qr.length <= rows && qr[0].length + 2 + TEXT_MIN <= width;

  if (tf.enabled === undefined) return tf.problem ? <Outcome problem={tf.problem} /> : <Text dimColor>Loading…</Text>;

  if (tf.recovery) {
    const text = tf.recovery.join('\n');
    return (
      <Box flexDirection="column">
        <Text color="green">{SECURITY_MESSAGES.otpEnabled}</Text>
        <Text>Recovery codes (shown once):</Text>
        <Box paddingLeft={2} marginBottom={1}>
          {[0, 1].map((col) => (
            <Box key={col} flexDirection="column" marginRight={4}>
              {tf.recovery!.slice(col * 5, col * 5 + 5).map((c) => (
                <Text key={c}>{c}</Text>
              ))}
            </Box>
          ))}
        </Box>
        <Form
          fields={[]}
          values={{}}
          onChange={() => {}}
          submitLabel="I have kept them"
          onSubmit={tf.done}
          initialFocus={1}
          links={[
            { label: 'Copy the codes', action: () => void nav.io.copy(text, 'the recovery codes') },
            {
              label: 'Save them to a file',
              action: () =>
                void nav.io.saveFile(RECOVERY_FILE, `${text}\n`).then(
                  (path) => notify(`Saved in ${path}`, 'success'),
                  (e: Error) => notify(e.message, 'error'),
                ),
            },
          ]}
        />
      </Box>
    );
  }

  if (tf.enabled)
    return (
      <Box flexDirection="column">
        <Text>On. Recovery codes left: {tf.recoveryLeft}.</Text>
        {form.open ? (
          <SectionForm
            fields={OFF}
            submitLabel="Turn off"
            problem={tf.problem}
            submit={(v) => tf.turnOff({ code: v.code, password: v.password })}
          />
        ) : (
          <>
            <Text dimColor>Press Enter to turn it off (your password, and a code from your authenticator app or a recovery code).</Text>
            <Outcome problem={tf.problem} />
          </>
        )}
      </Box>
    );

  if (!form.open)
    return (
      <Box flexDirection="column">
        <Text>Off. With it on, signing in also needs a code from an authenticator app.</Text>
        <Text dimColor>Press Enter to set it up.</Text>
        <Outcome problem={tf.problem} />
      </Box>
    );

  if (!tf.setup) return tf.problem ? <Outcome problem={tf.problem} /> : <Text dimColor>Loading…</Text>;
  return (
    <Box>
      {qrFits ? <QrCode lines={qr} /> : null}
      <Box flexDirection="column" marginLeft={qrFits ? 2 : 0} flexShrink={1}>
        <Text>
          {qrFits
            ? 'Scan the QR code with your authenticator app, or type the secret, then enter the code it shows.'
            : 'Type the secret into your authenticator app (or open the URI where the app is), then enter the code it shows.'}
        </Text>
        <Text bold>Secret</Text>
        <Text> {tf.setup.secret}</Text>
        <Text bold>URI</Text>
        {/* One line cut at the edge: the copy link gives it whole. */}
        <Text wrap="truncate-end"> {tf.setup.uri}</Text>
        <SectionForm
          fields={CODE}
          submitLabel="Turn on"
          problem={tf.problem}
          submit={(v) => tf.confirm(v.code)}
          links={[
            { label: 'Copy the secret', action: () => void nav.io.copy(tf.setup!.secret, 'the secret') },
            { label: 'Copy the URI', action: () => void nav.io.copy(tf.setup!.uri, 'the URI') },
          ]}
        />
        {qr.length && !qrFits ? (
          <Text dimColor>{`The QR code shows in a terminal of at least ${qr[0].length + 2 + TEXT_MIN + 2}x${qr.length + 4}.`}</Text>
        ) : null}
      </Box>
    </Box>
  );
}
