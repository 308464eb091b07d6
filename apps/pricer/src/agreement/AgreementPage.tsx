import { Alert, Badge, Button, Card, Group, Loader, Stack, Text, Title } from '@pfp/mantine';
import { describeUserAgent, formatDateTime, zh } from '@pfp/i18n';
import { serverMessage } from '@pfp/api-client';
import { notify } from '@pfp/ui';
import { Link, useParams } from '@pfp/router';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useAcceptAgreement, useAgreement } from '../shared/api';
import { useSession } from '../shared/session/useSession';

const t = zh.agreement;

// The printed copy: the whole text (no scroll box), the acceptance record, no buttons or app chrome.
const PRINT_CSS = `
@media print {
  header, footer, nav, [data-print-hide] { display: none !important; }
  [data-agreement-text] { max-height: none !important; overflow: visible !important; border: none !important; }
  [data-print-only] { display: block !important; }
}`;

/** How close to the end counts as read to the end (px: a sub-pixel scroll position never quite reaches it). */
const END_SLACK = 4;

/**
 * 点价协议 on the desk (issue 43): the current version's text in a box the customer reads to the end
 * before 同意并签署 is enabled; once accepted, the record (version, Beijing time, address, device) and
 * a printable copy.
 */
export function AgreementPage() {
  const session = useSession();
  const { tenantId } = useParams();
  const userId = session?.user.user_id ?? 0;
  const agreement = useAgreement(userId);
  const accept = useAcceptAgreement(userId);
  const box = useRef<HTMLDivElement>(null);
  const a = agreement.data;
  // The version read to the end: a new version is read again.
  const [readVersion, setReadVersion] = useState<number | null>(null);
  const readToEnd = a !== undefined && readVersion === a.version;
  const version = a?.version;

  const checkEnd = useCallback(() => {
    const el = box.current;
    if (version !== undefined && el && el.scrollTop + el.clientHeight >= el.scrollHeight - END_SLACK)
      setReadVersion(version);
  }, [version]);
  // A text short enough to show whole is read once shown (measured after layout).
  useEffect(() => {
    const frame = requestAnimationFrame(checkEnd);
    return () => cancelAnimationFrame(frame);
  }, [checkEnd]);

  if (agreement.isPending)
    return (
      <Group justify="center" py="xl">
        <Loader />
      </Group>
    );
  if (!a)
    return (
      <Alert color="red" role="alert">
        {t.loadFailed}
      </Alert>
    );

  async function onAccept() {
    try {
      await accept.mutateAsync(a!.version);
      notify(t.accepted, 'success');
    } catch (error) {
      notify(serverMessage(error) ?? t.acceptFailed, 'error');
    }
  }

  const record = a.acceptance;
  return (
    <Stack gap="sm">
      <style>{PRINT_CSS}</style>
      <Text data-print-only style={{ display: 'none' }} fw={700}>
        {t.printHeading(session?.user.company_name ?? '')}
      </Text>
      <Group justify="space-between" align="center" wrap="wrap" gap="xs">
        <Title order={2} size="h3">
          {a.title}
        </Title>
        <Badge variant="light" size="lg">
          {t.version(a.version)}
        </Badge>
      </Group>
      {a.accepted && record ? (
        <Alert color="green" title={t.accepted} data-testid="agreement-record">
          <Text size="sm">{t.acceptedAt(record.version, formatDateTime(record.accepted_at, true))}</Text>
          <Text size="sm">
            {t.acceptedFrom(
              record.ip ?? t.noAddress,
              record.user_agent ? describeUserAgent(record.user_agent) : t.noAddress,
            )}
          </Text>
        </Alert>
      ) : null}
      <Card withBorder radius="md" p={0}>
        <div
          ref={box}
          onScroll={checkEnd}
          role="region"
          aria-label={t.textLabel}
          tabIndex={0}
          data-agreement-text
          style={{ maxHeight: '55vh', overflowY: 'auto', padding: 'var(--mantine-spacing-md)', whiteSpace: 'pre-wrap' }}
        >
          <Text size="sm" style={{ lineHeight: 1.8 }}>
            {a.text}
          </Text>
        </div>
      </Card>
      <Stack gap="xs" data-print-hide>
        {a.accepted ? null : (
          <>
            <Text size="sm" c={readToEnd ? 'green' : 'dimmed'} role="status">
              {readToEnd ? t.readDone : t.readToEnd}
            </Text>
            <Text size="sm">{t.acceptConsequence}</Text>
          </>
        )}
        <Group gap="xs" wrap="wrap">
          {a.accepted ? null : (
            <Button onClick={() => void onAccept()} disabled={!readToEnd || accept.isPending}>
              {accept.isPending ? t.accepting : t.accept}
            </Button>
          )}
          <Button variant="default" onClick={() => window.print()}>
            {t.print}
          </Button>
          <Button variant="subtle" component={Link} to={`/pricer/${tenantId}/dashboard`}>
            {t.backToDesk}
          </Button>
        </Group>
      </Stack>
    </Stack>
  );
}
