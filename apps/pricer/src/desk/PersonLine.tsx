import { Alert, Text } from '@pfp/mantine';
import type { Snapshot } from '@pfp/contract';
import { zh } from '@pfp/i18n';

const t = zh.authorisedPricers.desk;

/**
 * Who is fixing (docs/authorised-pricers.md): the signed-in 授权点价人's name, or a warning that this
 * login may not fix (none on file, or switched off by the trader). Nothing until the snapshot is read.
 */
export function PersonLine({ person }: { person: Snapshot['person'] }) {
  if (person === undefined) return null;
  if (!person?.active)
    return (
      <Alert color="orange" role="alert" data-testid="not-authorised-banner">
        {t.notAuthorised}
      </Alert>
    );
  return (
    <Text size="sm" ta="center" data-testid="signed-in-person">
      {t.signedIn(person.name)}
    </Text>
  );
}
