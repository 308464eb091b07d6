import { ActionIcon, Box, Group, Stack, Text, TextInput, Tooltip } from '@pfp/mantine';
import { zh } from '@pfp/i18n';
import { IconCopy, notify } from '@pfp/ui';
import { QRCodeSVG } from 'qrcode.react';
import { portalLink, qrPixelSize, qrVersionFor } from './portalLink';

const t = zh.trader.layout;

/** Clipboard API first; the old execCommand path for browsers or contexts without it. */
async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      // fall through to the textarea copy
    }
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error(t.copyFailed);
}

/** SPEC §2 footer: read-only customer portal link, copy button and its QR code. */
export function PortalLinkPanel({ tenantId, origin }: { tenantId: number; origin: string }) {
  const link = portalLink(origin, tenantId);
  const size = qrPixelSize(link);
  const copy = () =>
    copyText(link).then(
      () => notify(t.linkCopied, 'success', 2000),
      () => notify(t.copyFailed, 'error'),
    );
  return (
    <Stack gap={6} data-testid="portal-link-panel">
      <Group gap={4} wrap="nowrap" align="flex-end">
        <TextInput
          label={t.portalLink}
          value={link}
          readOnly
          size="xs"
          style={{ flex: 1 }}
          onFocus={(event) => event.currentTarget.select()}
          data-testid="portal-link"
        />
        <Tooltip label={t.copyLink} openDelay={0}>
          <ActionIcon variant="default" size="md" aria-label={t.copyLink} onClick={() => void copy()}>
            <IconCopy size={16} />
          </ActionIcon>
        </Tooltip>
      </Group>
      <Stack gap={2} align="center">
        <Box bg="#FFFFFF" style={{ lineHeight: 0 }}>
          <QRCodeSVG
            value={link}
            level="L"
            minVersion={qrVersionFor(link)}
            size={size}
            marginSize={1}
            fgColor="#000000"
            bgColor="#FFFFFF"
            title={t.qrAlt(link)}
            role="img"
            aria-label={t.qrAlt(link)}
            data-testid="portal-qr"
          />
        </Box>
        <Text size="xs" c="dimmed">
          {t.scanToVisit}
        </Text>
      </Stack>
    </Stack>
  );
}
