import { Center, Loader, Stack, Text } from '@pfp/mantine';

/** Full-screen overlay with a spinner and one line of text (auth checks, app loading). */
export function FullScreenMessage({ text }: { text: string }) {
  return (
    <Center h="100vh" role="status" aria-live="polite">
      <Stack align="center" gap="sm">
        <Loader />
        <Text c="dimmed">{text}</Text>
      </Stack>
    </Center>
  );
}
