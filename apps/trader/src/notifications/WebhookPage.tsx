import {
  Alert,
  Button,
  Card,
  Checkbox,
  Group,
  PasswordInput,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@pfp/mantine';
import { NOTIFICATION_KINDS, type NotificationKind, type WebhookSettings } from '@pfp/contract';
import { formatDateTime, zh } from '@pfp/i18n';
import { notify } from '@pfp/ui';
import { isHttpError } from '@pfp/api-client';
import { useState } from 'react';
import { errorText, useSetWebhook, useTestWebhook, useWebhook, useWebhookDeliveries } from '../shared/api';
import { PageHeading } from '../shared/PageHeading';
import { TONE } from '../shared/tones';

const t = zh.notifications.webhook;
const kindName = (k: string) => zh.notifications.kinds[k] ?? k;

/** The field a 400 names (`url`, `secret`, `kinds[0]`): its message goes under that input. */
function fieldOf(err: unknown): string | undefined {
  if (!isHttpError(err)) return undefined;
  try {
    const field = (JSON.parse(err.body) as { error?: { field?: unknown } }).error?.field;
    return typeof field === 'string' ? field : undefined;
  } catch {
    return undefined;
  }
}

/** /trader/notifications: the company's team-chat robot and its delivery log (docs/notifications.md). */
export function WebhookPage() {
  const settings = useWebhook();
  const deliveries = useWebhookDeliveries();
  return (
    <Stack gap="md">
      <PageHeading subtitle={t.subtitle} />
      {settings.isError ? (
        <Alert color={TONE.danger} variant="light" role="alert">
          {zh.notifications.loadFailed(errorText(settings.error))}
        </Alert>
      ) : null}
      {settings.data ? <WebhookForm initial={settings.data} /> : null}
      <Card withBorder radius="md" padding="md">
        <Title order={3} size="h4" mb="xs">
          {t.deliveries}
        </Title>
        {deliveries.isError ? (
          <Alert color={TONE.danger} variant="light" role="alert">
            {zh.notifications.loadFailed(errorText(deliveries.error))}
          </Alert>
        ) : null}
        {deliveries.data && deliveries.data.items.length === 0 ? (
          <Text c="dimmed" size="sm">
            {t.deliveriesEmpty}
          </Text>
        ) : null}
        {deliveries.data && deliveries.data.items.length > 0 ? (
          <Table.ScrollContainer minWidth={760}>
            <Table striped withTableBorder aria-label={t.deliveries}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t.columns.id}</Table.Th>
                  <Table.Th>{t.columns.title}</Table.Th>
                  <Table.Th>{t.columns.status}</Table.Th>
                  <Table.Th ta="right">{t.columns.attempts}</Table.Th>
                  <Table.Th>{t.columns.lastStatus}</Table.Th>
                  <Table.Th>{t.columns.createdAt}</Table.Th>
                  <Table.Th>{t.columns.deliveredAt}</Table.Th>
                  <Table.Th>{t.columns.nextAt}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {deliveries.data.items.map((d) => (
                  <Table.Tr key={d.id}>
                    <Table.Td>{d.id}</Table.Td>
                    <Table.Td>{d.title}</Table.Td>
                    <Table.Td>{d.status_str}</Table.Td>
                    <Table.Td ta="right">{d.attempts}</Table.Td>
                    <Table.Td>{d.last_error || (d.last_status !== null ? String(d.last_status) : '-')}</Table.Td>
                    <Table.Td>{formatDateTime(d.created_at, true)}</Table.Td>
                    <Table.Td>{d.delivered_at ? formatDateTime(d.delivered_at, true) : '-'}</Table.Td>
                    <Table.Td>{d.next_at ? formatDateTime(d.next_at, true) : '-'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : null}
      </Card>
    </Stack>
  );
}

function WebhookForm({ initial }: { initial: WebhookSettings }) {
  const save = useSetWebhook();
  const test = useTestWebhook();
  const [url, setUrl] = useState(initial.url);
  const [secret, setSecret] = useState('');
  const [kinds, setKinds] = useState<string[]>(initial.updated_at ? initial.kinds : [...NOTIFICATION_KINDS]);
  const [error, setError] = useState<{ field?: string; message: string } | null>(null);

  const submit = () => {
    setError(null);
    save.mutate(
      { url, secret, kinds: kinds as NotificationKind[] },
      {
        onSuccess: () => {
          setSecret('');
          notify(t.saved, 'success');
        },
        onError: (err) => {
          const field = fieldOf(err);
          setError({ ...(field ? { field } : {}), message: errorText(err) });
        },
      },
    );
  };
  const fieldError = (name: string) => (error?.field?.startsWith(name) ? error.message : undefined);

  return (
    <Card withBorder radius="md" padding="md">
      <Stack gap="sm">
        <TextInput
          label={t.url}
          description={t.urlHint}
          value={url}
          onChange={(e) => setUrl(e.currentTarget.value)}
          error={fieldError('url')}
          placeholder="https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=…"
        />
        <PasswordInput
          label={t.secret}
          description={t.secretHint(initial.has_secret)}
          value={secret}
          onChange={(e) => setSecret(e.currentTarget.value)}
          error={fieldError('secret')}
          autoComplete="new-password"
        />
        <Checkbox.Group label={t.kinds} value={kinds} onChange={setKinds} error={fieldError('kinds')}>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} mt="xs" spacing="xs">
            {NOTIFICATION_KINDS.map((k) => (
              <Checkbox key={k} value={k} label={kindName(k)} />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
        {error && !error.field ? (
          <Alert color={TONE.danger} variant="light" role="alert">
            {t.saveFailed(error.message)}
          </Alert>
        ) : null}
        {test.data || test.isError ? (
          <Alert
            color={test.data?.delivered ? TONE.success : TONE.danger}
            variant="light"
            role="status"
            data-testid="webhook-test-result"
          >
            {test.data
              ? test.data.delivered
                ? test.data.message
                : t.testFailed(test.data.message)
              : t.testFailed(errorText(test.error))}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button
            variant="default"
            onClick={() => test.mutate()}
            loading={test.isPending}
            disabled={!initial.url}
            title={initial.url ? t.testHint : t.noUrl}
          >
            {t.test}
          </Button>
          <Button onClick={submit} loading={save.isPending}>
            {t.save}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
