import { Alert, Badge, Button, Card, Stack, Table, Text, Title } from '@pfp/mantine';
import { formatDateTime, zh } from '@pfp/i18n';
import { useState } from 'react';
import { errorText, useAgreements } from '../shared/api';
import { PageHeading } from '../shared/PageHeading';
import { TONE } from '../shared/tones';
import { RecordSignedDialog, SaveAgreementDialog } from './AgreementDialogs';

const t = zh.agreement.console;

/**
 * /trader/agreement (issue 43, docs/agreement.md): the company's 点价协议 versions, a new version, and
 * every customer's standing: accepted on the desk (may fix) and the signed paper on file.
 */
export function AgreementPage() {
  const overview = useAgreements();
  const [editing, setEditing] = useState(false);
  const [recording, setRecording] = useState<{ user_id: number; name: string } | null>(null);
  const data = overview.data;
  const current = data?.templates[0];
  return (
    <Stack gap="md">
      <PageHeading
        subtitle={t.subtitle}
        actions={
          <Button onClick={() => setEditing(true)} disabled={!current}>
            {t.newVersion}
          </Button>
        }
      />
      {overview.isError ? (
        <Alert color={TONE.danger} variant="light" role="alert">
          {`${t.loadFailed}：${errorText(overview.error)}`}
        </Alert>
      ) : null}
      {data && current ? (
        <>
          <Text fw={600} data-testid="agreement-current">
            {t.current(current.version, data.required_version)}
          </Text>
          <Card withBorder radius="md" padding="md">
            <Title order={3} size="h4" mb="xs">
              {t.customers}
            </Title>
            <Table.ScrollContainer minWidth={720}>
              <Table striped withTableBorder aria-label={t.customers}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t.customerCol}</Table.Th>
                    <Table.Th>{t.statusCol}</Table.Th>
                    <Table.Th>{t.acceptedCol}</Table.Th>
                    <Table.Th>{t.signedCol}</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.customers.map((c) => {
                    const name = c.full_name ? `${c.full_name}（${c.username}）` : c.username;
                    return (
                      <Table.Tr key={c.user_id}>
                        <Table.Td>{name}</Table.Td>
                        <Table.Td>
                          <Badge color={c.accepted ? 'green' : 'orange'} variant="light">
                            {c.accepted ? t.canFix : t.mustSign}
                          </Badge>
                        </Table.Td>
                        <Table.Td>
                          {c.acceptance
                            ? t.acceptedCell(c.acceptance.version, formatDateTime(c.acceptance.accepted_at))
                            : t.none}
                        </Table.Td>
                        <Table.Td>
                          {c.signed ? t.signedCell(c.signed.version, c.signed.reference, c.signed.signed_on) : t.none}
                        </Table.Td>
                        <Table.Td>
                          <Button
                            size="xs"
                            variant="default"
                            aria-label={t.recordFor(c.username)}
                            onClick={() => setRecording({ user_id: c.user_id, name })}
                          >
                            {t.record}
                          </Button>
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Card>
          <Card withBorder radius="md" padding="md">
            <Title order={3} size="h4" mb="xs">
              {t.versions}
            </Title>
            <Table.ScrollContainer minWidth={560}>
              <Table striped withTableBorder aria-label={t.versions}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t.versionCol}</Table.Th>
                    <Table.Th>{t.titleCol}</Table.Th>
                    <Table.Th>{t.requiredCol}</Table.Th>
                    <Table.Th>{t.createdCol}</Table.Th>
                    <Table.Th>{t.createdByCol}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.templates.map((v) => (
                    <Table.Tr key={v.version}>
                      <Table.Td>{zh.agreement.version(v.version)}</Table.Td>
                      <Table.Td>{v.title}</Table.Td>
                      <Table.Td>{v.required ? t.yes : t.no}</Table.Td>
                      <Table.Td>{formatDateTime(v.created_at)}</Table.Td>
                      <Table.Td>{v.created_by === 'system' ? t.builtIn : v.created_by}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Card>
        </>
      ) : null}
      {editing && current ? (
        <SaveAgreementDialog
          opened
          onClose={() => setEditing(false)}
          initial={{ title: current.title, text: current.text }}
        />
      ) : null}
      {recording && current ? (
        <RecordSignedDialog customer={recording} version={current.version} onClose={() => setRecording(null)} />
      ) : null}
    </Stack>
  );
}
