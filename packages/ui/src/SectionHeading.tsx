import { Text, Title } from '@pfp/mantine';
import type { ReactNode } from 'react';

/** A card's title and the line under it; `small` on the customer desk's compact cards. */
export function SectionHeading({
  title,
  description,
  small,
}: {
  title: string;
  description: ReactNode;
  small?: boolean;
}) {
  return (
    <div>
      <Title order={3} size={small ? 'h5' : 'h4'}>
        {title}
      </Title>
      <Text size={small ? 'xs' : 'sm'} c={small ? 'dimmed' : 'gray.7'}>
        {description}
      </Text>
    </div>
  );
}
