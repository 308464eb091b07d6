/**
 * The part of Mantine this platform uses, shared once across the page by module federation.
 *
 * A federated singleton is provided whole: nothing can tree-shake it for the one consumer that
 * loads it. Sharing @mantine/core itself would make every page fetch all of Mantine (~209 KB
 * gzipped); sharing this list fetches only what the host and the three remotes render. Apps and
 * packages import Mantine values from here (ESLint refuses value imports of @mantine/core and
 * @mantine/hooks elsewhere; types may still come from Mantine directly).
 *
 * The list is a contract between independently deployed apps: it only grows, and a release that
 * adds to it is deployed to the host before the remote that needs it (docs/architecture.md).
 */
export {
  ActionIcon,
  Alert,
  Anchor,
  AppShell,
  Badge,
  Box,
  Breadcrumbs,
  Burger,
  Button,
  Card,
  Center,
  Checkbox,
  CloseButton,
  Code,
  Collapse,
  Container,
  Divider,
  Drawer,
  Group,
  Input,
  List,
  Loader,
  MantineProvider,
  Modal,
  MultiSelect,
  NativeSelect,
  NavLink,
  NumberInput,
  Paper,
  PasswordInput,
  ScrollArea,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  ThemeIcon,
  Title,
  Tooltip,
  UnstyledButton,
  createTheme,
  useComputedColorScheme,
} from '@mantine/core';
export { DateInput } from './DateInput';
export type { DateInputProps } from '@mantine/dates';
export { useElementSize, useMediaQuery, useViewportSize } from '@mantine/hooks';
export type * from '@mantine/core';
