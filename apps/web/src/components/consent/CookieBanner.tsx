import { Anchor, Badge, Button, Group, Paper, Stack, Switch, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCookie, IconExternalLink } from '@tabler/icons-react';
import { useEffect, useId, useState } from 'react';
import { ACCEPT_ALL, REJECT_NON_ESSENTIAL } from '../../services/consent/cookieConsent';
import { onOpenCookiePreferences, useCookieConsent } from '../../services/consent/useCookieConsent';
import classes from './CookieBanner.module.css';

type View = 'hidden' | 'notice' | 'preferences';

function PolicyLink({ href, children }: { href: string; children: string }) {
  return (
    <Anchor href={href} target="_blank" rel="noopener noreferrer" fz="sm" inline>
      {children}
      <IconExternalLink size={12} stroke={1.8} aria-hidden="true" style={{ marginLeft: 3, verticalAlign: '-1px' }} />
      <span className={classes.srOnly}> (opens in a new tab)</span>
    </Anchor>
  );
}

/**
 * Cookie banner (spec 001 §2, §4): shown over the page until a choice is stored; the
 * preferences view keeps Essential locked on and lets Analytics and Functional be chosen.
 */
export function CookieBanner() {
  const { consent, choose } = useCookieConsent();
  const [reopened, setReopened] = useState(false);
  const [showPreferences, setShowPreferences] = useState(false);
  const [analytics, setAnalytics] = useState(false);
  const [functional, setFunctional] = useState(false);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(
    () =>
      onOpenCookiePreferences(() => {
        setReopened(true);
        setShowPreferences(true);
      }),
    [],
  );

  // Preferences start from the stored choice when there is one.
  useEffect(() => {
    if (showPreferences) {
      setAnalytics(consent?.analytics ?? false);
      setFunctional(consent?.functional ?? false);
    }
  }, [showPreferences]); // eslint-disable-line react-hooks/exhaustive-deps

  const view: View = consent && !reopened ? 'hidden' : showPreferences ? 'preferences' : 'notice';
  if (view === 'hidden') return null;

  function decide(choice: { analytics: boolean; functional: boolean }) {
    choose(choice);
    setReopened(false);
    setShowPreferences(false);
  }

  return (
    <div className={classes.anchor}>
      <Paper
        role="dialog"
        aria-modal="false"
        aria-labelledby={titleId}
        aria-describedby={descriptionId}
        shadow="xl"
        radius="lg"
        p="lg"
        className={classes.panel}
        data-testid="cookie-banner"
      >
        <Group align="flex-start" wrap="nowrap" gap="md">
          <ThemeIcon size={38} radius="md" variant="light" color="desk" className={classes.icon}>
            <IconCookie size={22} stroke={1.6} />
          </ThemeIcon>
          <Stack gap="sm" style={{ flex: 1 }}>
            {view === 'notice' ? (
              <>
                <div>
                  <Title order={2} fz="md" id={titleId}>
                    Cookies on this site
                  </Title>
                  <Text fz="sm" c="dimmed" mt={4} id={descriptionId}>
                    We use essential cookies to keep you signed in and secure. With your permission we also use analytics cookies to
                    understand how the desk is used and functional cookies to remember your preferences. See our{' '}
                    <PolicyLink href="/cookie-policy">Cookie Policy</PolicyLink>.
                  </Text>
                </div>
                <Group gap="xs" justify="flex-end" className={classes.actions}>
                  <Button variant="subtle" onClick={() => setShowPreferences(true)}>
                    Manage Preferences
                  </Button>
                  <Button variant="default" onClick={() => decide(REJECT_NON_ESSENTIAL)}>
                    Reject Non-Essential
                  </Button>
                  <Button onClick={() => decide(ACCEPT_ALL)}>Accept All</Button>
                </Group>
              </>
            ) : (
              <>
                <div>
                  <Title order={2} fz="md" id={titleId}>
                    Cookie preferences
                  </Title>
                  <Text fz="sm" c="dimmed" mt={4} id={descriptionId}>
                    Choose which optional cookies we may use. You can change this at any time from the Cookie Policy page.
                  </Text>
                </div>
                <Stack gap={0} className={classes.categories}>
                  <div className={classes.category}>
                    <Switch
                      checked
                      disabled
                      classNames={{ track: classes.lockedTrack, thumb: classes.lockedThumb, label: classes.lockedLabel }}
                      label={
                        <Group gap={6}>
                          <span>Essential</span>
                          <Badge size="xs" color="gray" variant="light">
                            Always on
                          </Badge>
                        </Group>
                      }
                      description="Sign-in, security and remembering this choice. The desk cannot work without them."
                    />
                  </div>
                  <div className={classes.category}>
                    <Switch
                      checked={analytics}
                      onChange={(event) => setAnalytics(event.currentTarget.checked)}
                      label="Analytics"
                      description="Anonymous usage measurements that help us improve the product."
                    />
                  </div>
                  <div className={classes.category}>
                    <Switch
                      checked={functional}
                      onChange={(event) => setFunctional(event.currentTarget.checked)}
                      label="Functional"
                      description="Remember display preferences such as layouts and selected clients."
                    />
                  </div>
                </Stack>
                <Group justify="space-between" gap="xs" className={classes.actions}>
                  <Group gap="md">
                    <PolicyLink href="/cookie-policy">Cookie Policy</PolicyLink>
                    <PolicyLink href="/privacy-policy">Privacy Policy</PolicyLink>
                  </Group>
                  <Group gap="xs">
                    <Button
                      variant="default"
                      onClick={() => {
                        if (reopened && consent) setReopened(false);
                        setShowPreferences(false);
                      }}
                    >
                      Back
                    </Button>
                    <Button onClick={() => decide({ analytics, functional })}>Save Preferences</Button>
                  </Group>
                </Group>
              </>
            )}
          </Stack>
        </Group>
      </Paper>
    </div>
  );
}
