import { Alert, Button, Card, Group, Loader, Stack, Text, Title } from '@pfp/mantine';
import { zh } from '@pfp/i18n';
import { IconSettings } from '@pfp/ui';
import type { ReactNode } from 'react';
import { useConsole } from './ConsoleContext';
import { TONE } from '../shared/tones';

const t = zh.trader.layout;

/** Every console view is per company: until the first settings save there is nothing to show. */
export function RequireTenant({ children }: { children: ReactNode }) {
  const { profile, profileLoading, profileError, openSettings } = useConsole();
  if (profile) return <>{children}</>;
  if (profileLoading) {
    return (
      <Group justify="center" gap="xs" py="xl" role="status">
        <Loader size="sm" />
        <Text c="gray.7">{t.loadingProfile}</Text>
      </Group>
    );
  }
  if (profileError) {
    return (
      <Alert color={TONE.danger} variant="light" role="alert">
        {t.profileLoadFailed(profileError.message)}
      </Alert>
    );
  }
  return (
    <Card withBorder padding="xl" radius="md" data-testid="setup-required">
      <Stack align="flex-start" gap="sm">
        <Title order={2} size="h4">
          {t.setupTitle}
        </Title>
        <Text c="gray.7">{t.setupBody}</Text>
        <Button color={TONE.primary} leftSection={<IconSettings size={16} />} onClick={openSettings}>
          {t.openSettings}
        </Button>
      </Stack>
    </Card>
  );
}
