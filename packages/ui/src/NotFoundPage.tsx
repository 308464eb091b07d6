import { Button, Center, Code, Group, List, Paper, Stack, Text, ThemeIcon, Title } from '@pfp/mantine';
import { IconArrowLeft, IconHome, IconSearch } from './icons';
import { zh } from '@pfp/i18n';
import { useLocation, useNavigate } from '@pfp/router';

const t = zh.notFound;

/** SPEC "404 page": shown by the host for unknown apps and by a remote for its unknown routes. */
export function NotFoundPage() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" radius="lg" p="xl" maw={520} w="100%">
        <Stack align="center" gap="md">
          <ThemeIcon size={72} radius="xl" variant="light" aria-hidden>
            <IconSearch size={40} />
          </ThemeIcon>
          <Title order={1} fz={56} lh={1}>
            {t.code}
          </Title>
          <Title order={2} size="h3">
            {t.title}
          </Title>
          <Text ta="center" c="dimmed">
            {t.message}
            <br />
            {t.pathLabel}
            <Code data-testid="not-found-path">{pathname}</Code>
          </Text>
          <Group>
            <Button leftSection={<IconHome size={16} />} onClick={() => navigate('/main')}>
              {t.backHome}
            </Button>
            <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={() => navigate(-1)}>
              {t.backPrevious}
            </Button>
          </Group>
          <Stack gap={4} w="100%">
            <Text fw={500}>{t.causesTitle}</Text>
            <List size="sm" c="dimmed">
              {t.causes.map((c) => (
                <List.Item key={c}>{c}</List.Item>
              ))}
            </List>
          </Stack>
        </Stack>
      </Paper>
    </Center>
  );
}
