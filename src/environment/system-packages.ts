/**
 * Which system package manager owns a distribution, so no fix deletes or pip-installs over its files:
 * Debian's apt puts python3-* packages in /usr/lib/python3/dist-packages (their .dist-info has no
 * INSTALLER, or "debian"); Fedora's rpm, Arch's pacman and the like use /usr/lib{,64}/pythonX.Y/site-packages.
 * /usr/local and virtual environments belong to pip, uv and conda. Pure: paths and INSTALLER in, an owner out.
 */
export function findSystemOwner(sitePackages: string, installer: string | null): string | undefined {
  const tool = installer?.trim().toLowerCase();
  if (tool === 'debian' || tool === 'dpkg' || tool === 'apt') return 'dpkg';
  if (tool === 'rpm' || tool === 'dnf' || tool === 'yum') return 'rpm';
  // Installed by pip, uv or conda, even inside a system folder (pip --break-system-packages).
  if (tool !== undefined && tool !== '') return undefined;
  const folder = sitePackages.replace(/\/+$/, '');
  if (/^\/usr\/lib\/python3(?:\.\d+)?\/dist-packages$/.test(folder)) return 'dpkg';
  if (/^\/usr\/lib(?:64)?\/python3\.\d+t?\/site-packages$/.test(folder)) return 'the system package manager';
  return undefined;
}

/** The command that says which system package owns a path, for a fix to point at instead of deleting. */
export function describeOwnerQuery(owner: string, path: string): string {
  if (owner === 'dpkg') return `dpkg -S ${path}`;
  if (owner === 'rpm') return `rpm -qf ${path}`;
  return `your package manager (e.g. dpkg -S, rpm -qf, pacman -Qo ${path})`;
}
