import type { Locator, Page } from 'playwright-core';

/** The top navigation bar (main or compact variant). */
export class NavBar {
  readonly root: Locator;
  readonly signInButton: Locator;
  readonly userMenuButton: Locator;
  readonly logoutButton: Locator;
  readonly mainNav: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByRole('banner');
    this.mainNav = this.root.getByRole('navigation', { name: 'Main' });
    this.signInButton = this.root.getByRole('link', { name: 'Sign In' });
    this.userMenuButton = this.root.getByRole('button', { name: /^User menu for / });
    this.logoutButton = this.root.getByRole('button', { name: 'Logout' });
  }

  link(name: string): Locator {
    return this.mainNav.getByRole('link', { name, exact: true });
  }

  menu(name: string): Locator {
    return this.mainNav.getByRole('button', { name, exact: true });
  }

  /** The role badge next to the username. */
  roleBadge(): Locator {
    return this.userMenuButton.locator('.mantine-Badge-root');
  }

  async openUserMenu(): Promise<Locator> {
    await this.userMenuButton.click();
    const menu = this.page.getByRole('menu');
    await menu.waitFor();
    return menu;
  }

  async signOut(): Promise<void> {
    const menu = await this.openUserMenu();
    await menu.getByRole('menuitem', { name: 'Sign Out' }).click();
  }
}
