import { Alert, Badge, Box, Button, Container, Group, Paper, SimpleGrid, Stack, Text, ThemeIcon, Timeline, Title } from '@mantine/core';
import {
  IconArrowRight,
  IconBolt,
  IconClipboardList,
  IconHeadset,
  IconLock,
  IconLogin,
  IconMail,
  IconMessages,
  IconPlugConnected,
  IconRoute,
  IconShieldCheck,
  IconUsersGroup,
} from '@tabler/icons-react';
import { Link, Navigate, useLocation } from 'react-router';
import { desktopLandingRedirect, forbiddenFrom } from '../../app/access';
import { useDesktopShell } from '../../app/desktopShell';
import { DESKTOP_SIGNED_IN_HOME, LOGIN_PATH, isRegisteredPath } from '../../app/routes';
import { CONTACT_EMAILS, PRODUCT_NAME } from '../../config/product';
import { useAuth } from '../../services/auth/AuthProvider';
import classes from './LandingPage.module.css';

const BENEFITS = [
  {
    icon: IconPlugConnected,
    title: 'Digital integration',
    text: 'Clients connect their order management systems over standard FIX 4.4 sessions. Single months, quarter and calendar strips and spreads arrive as structured orders, not chat messages to retype.',
  },
  {
    icon: IconHeadset,
    title: 'Workflow preservation',
    text: 'Brokers keep working orders the way they always have, by voice and chat with the market. The desk accepts, fills and completes each order, and the client sees every step as execution reports.',
  },
  {
    icon: IconBolt,
    title: 'Operational efficiency',
    text: 'One live blotter for every connected client, fills validated against limit prices, and a complete audit trail of order actions and FIX messages, exportable for compliance.',
  },
] as const;

const STEPS = [
  {
    icon: IconRoute,
    title: 'Clients send orders over FIX',
    text: 'Systematic, low-touch clients route orders from their own systems through a FIX session.',
  },
  {
    icon: IconUsersGroup,
    title: 'Brokers work them by voice and chat',
    text: 'The order lands on the blotter; a broker accepts it and works it with the market as usual.',
  },
  {
    icon: IconMessages,
    title: 'Executions flow straight back',
    text: 'Each fill is reported to the client in real time, with the average price computed from the fills.',
  },
] as const;

const LIFECYCLE = [
  { label: 'New order received', detail: 'NewOrderSingle 35=D from the client connector', color: 'gray' },
  { label: 'Pending', detail: 'Acknowledged to the client, awaiting the desk', color: 'yellow' },
  { label: 'Accepted', detail: 'A broker takes the order', color: 'blue' },
  { label: 'Partially filled', detail: 'Fills reported as they are done', color: 'teal' },
  { label: 'Filled', detail: 'Cumulative quantity equals order quantity', color: 'green' },
  { label: 'Done for day', detail: 'Order closed on the desk', color: 'dark' },
] as const;

/** Landing page (spec 001 §1): what the product is and for whom. */
export default function LandingPage() {
  const { status } = useAuth();
  const desktopShell = useDesktopShell();
  const signedIn = status === 'signedIn';
  // A guarded screen the role may not open sent the visitor here: say why.
  const forbidden = forbiddenFrom(useLocation().state);

  if (desktopShell) {
    const target = desktopLandingRedirect(status);
    if (target) return <Navigate to={target} replace />;
  }

  const primary = signedIn
    ? isRegisteredPath(DESKTOP_SIGNED_IN_HOME)
      ? { label: 'Open the blotter', to: DESKTOP_SIGNED_IN_HOME, icon: IconArrowRight }
      : { label: 'Go to my account', to: '/account', icon: IconArrowRight }
    : { label: 'Sign In', to: LOGIN_PATH, icon: IconLogin };
  const PrimaryIcon = primary.icon;

  return (
    <>
      {forbidden && (
        <Container size="lg" pt="md">
          <Alert color="orange" variant="light" icon={<IconLock size={18} />} role="alert" data-testid="route-forbidden">
            {forbidden}
          </Alert>
        </Container>
      )}
      <Box component="section" className={classes.hero} aria-labelledby="landing-title">
        <Container size="lg" className={classes.heroInner}>
          <Stack gap="lg" className={classes.heroCopy}>
            <Badge variant="outline" color="blue.3" size="md" radius="sm" className={classes.eyebrow}>
              FIX 4.4 · Freight &amp; commodities
            </Badge>
            <Title order={1} id="landing-title" className={classes.heroTitle}>
              FIX order management for voice and chat based OTC brokers
            </Title>
            <Text className={classes.heroLead}>
              {PRODUCT_NAME} connects systematic, low-touch clients to traditional brokers. Orders for freight, commodity and similar
              derivatives arrive electronically over FIX; your brokers work them by voice and chat; executions flow back to the client
              automatically.
            </Text>
            <Group gap="sm">
              <Button component={Link} to={primary.to} size="md" rightSection={<PrimaryIcon size={17} />}>
                {primary.label}
              </Button>
              <Button component="a" href="#how-it-works" size="md" variant="white" color="navy.9" className={classes.secondaryCta}>
                How it works
              </Button>
            </Group>
          </Stack>

          <Paper className={classes.lifecycle} radius="lg" p="lg" aria-label="Order lifecycle">
            <Group justify="space-between" mb="md">
              <Text fw={650} fz="sm">
                Order lifecycle
              </Text>
              <Badge size="sm" variant="light" color="desk">
                Execution reports 35=8
              </Badge>
            </Group>
            <Timeline active={LIFECYCLE.length - 1} bulletSize={14} lineWidth={2} color="desk">
              {LIFECYCLE.map((step) => (
                <Timeline.Item
                  key={step.label}
                  color={step.color}
                  title={
                    <Text fz="sm" fw={600}>
                      {step.label}
                    </Text>
                  }
                >
                  <Text fz="xs" c="dimmed">
                    {step.detail}
                  </Text>
                </Timeline.Item>
              ))}
            </Timeline>
          </Paper>
        </Container>
      </Box>

      <Container size="lg" py={56} component="section" aria-labelledby="benefits-title">
        <Stack gap={6} mb="xl" maw={640}>
          <Text className={classes.kicker}>Why brokers use {PRODUCT_NAME}</Text>
          <Title order={2} id="benefits-title">
            Electronic clients without changing how your desk works
          </Title>
        </Stack>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
          {BENEFITS.map((benefit) => {
            const Icon = benefit.icon;
            return (
              <Paper key={benefit.title} withBorder p="lg" className={classes.benefit}>
                <ThemeIcon size={40} radius="md" variant="light" color="desk">
                  <Icon size={22} stroke={1.6} />
                </ThemeIcon>
                <Title order={3} mt="md">
                  {benefit.title}
                </Title>
                <Text fz="sm" c="dimmed" mt={6}>
                  {benefit.text}
                </Text>
              </Paper>
            );
          })}
        </SimpleGrid>
      </Container>

      <Box component="section" className={classes.band} id="how-it-works" aria-labelledby="how-title">
        <Container size="lg" py={56}>
          <Stack gap={6} mb="xl" maw={640}>
            <Text className={classes.kicker}>How it works</Text>
            <Title order={2} id="how-title">
              From the client&apos;s system to your broker and back
            </Title>
          </Stack>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xl">
            {STEPS.map((step, index) => {
              const Icon = step.icon;
              return (
                <Stack key={step.title} gap="xs">
                  <Group gap="sm">
                    <span className={classes.stepNumber}>{index + 1}</span>
                    <Icon size={20} stroke={1.6} className={classes.stepIcon} aria-hidden="true" />
                  </Group>
                  <Title order={3}>{step.title}</Title>
                  <Text fz="sm" c="dimmed">
                    {step.text}
                  </Text>
                </Stack>
              );
            })}
          </SimpleGrid>
        </Container>
      </Box>

      <Container size="lg" py={56} component="section" aria-labelledby="markets-title">
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl">
          <Stack gap="sm">
            <Text className={classes.kicker}>Built for OTC derivatives desks</Text>
            <Title order={2} id="markets-title">
              Freight and energy, outrights and strategies
            </Title>
            <Text fz="sm" c="dimmed">
              Forward freight agreements and energy futures cleared on the Singapore and European exchanges: single months, quarter and
              calendar strips, spreads and custom multi-leg strategies, each with its legs and ratios intact.
            </Text>
          </Stack>
          <SimpleGrid cols={2} spacing="sm">
            {[
              { title: 'Timecharter FFAs', text: 'Capesize, Panamax and Supramax basket routes' },
              { title: 'Voyage FFAs', text: 'Iron ore and coal routes, per tonne' },
              { title: 'Strips', text: 'Quarters and calendar years as one order' },
              { title: 'Spreads', text: 'Buy and sell legs with balanced ratios' },
            ].map((item) => (
              <Paper key={item.title} withBorder p="md">
                <Group gap={8} wrap="nowrap">
                  <IconClipboardList size={16} stroke={1.7} className={classes.stepIcon} aria-hidden="true" />
                  <Text fw={600} fz="sm">
                    {item.title}
                  </Text>
                </Group>
                <Text fz="xs" c="dimmed" mt={4}>
                  {item.text}
                </Text>
              </Paper>
            ))}
          </SimpleGrid>
        </SimpleGrid>
      </Container>

      <Container size="lg" pb={64} component="section" aria-labelledby="cta-title">
        <Paper className={classes.cta} radius="lg" p="xl">
          <Group justify="space-between" gap="lg">
            <Stack gap={4}>
              <Title order={2} id="cta-title" c="white">
                Connect your first client
              </Title>
              <Text c="navy.2" fz="sm">
                Talk to us about onboarding a FIX session and setting up your desk.
              </Text>
            </Stack>
            <Group gap="sm">
              <ThemeIcon variant="transparent" c="teal.3" size="lg" aria-hidden="true">
                <IconShieldCheck size={22} stroke={1.6} />
              </ThemeIcon>
              <Button
                component="a"
                href={`mailto:${CONTACT_EMAILS.support}`}
                variant="white"
                color="navy.9"
                leftSection={<IconMail size={16} />}
              >
                Contact support
              </Button>
            </Group>
          </Group>
        </Paper>
      </Container>
    </>
  );
}
