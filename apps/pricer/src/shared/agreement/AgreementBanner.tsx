import { Alert, Button } from '@pfp/mantine';
import { zh } from '@pfp/i18n';
import { Link, useLocation, useParams } from '@pfp/router';
import { useAgreement } from '../api';

const t = zh.agreement;

/**
 * Asks a customer who has not accepted the current 点价协议 (a new customer, or one whose company
 * required a new version) to read it: on every page but the agreement's own, from the next login on.
 */
export function AgreementBanner({ userId }: { userId: number }) {
  const { tenantId } = useParams();
  const { pathname } = useLocation();
  const agreement = useAgreement(userId);
  const to = `/pricer/${tenantId}/agreement`;
  const a = agreement.data;
  if (!a || a.accepted || pathname === to) return null;
  return (
    <Alert color="orange" title={t.bannerTitle} role="alert" mb="sm" data-testid="agreement-banner">
      {a.acceptance ? t.bannerNew(a.title, a.version) : t.banner(a.title, a.version)}
      <div>
        <Button component={Link} to={to} size="sm" mt="xs">
          {t.read}
        </Button>
      </div>
    </Alert>
  );
}
