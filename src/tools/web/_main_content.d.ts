/** The part of a page worth reading, still as HTML, and its title when the page has one. */
export interface MainContent {
  html: string;
  title?: string;
}

/**
 * The main content of `html`: Readability's article, or the body without navigation, header and footer
 * when it finds none; links and image sources made absolute against the page's base and `url`.
 */
export function mainContent(html: string, url?: string): MainContent;
