// @ts-check
// Progressive enhancement only: without this script every page still shows everything, statically.
(() => {
  const NODE_URL_KEY = 'avalanche-openrpc.docs.nodeUrl';
  const TIMEOUT_MS = 15000;

  function storage() {
    // localStorage may be unavailable (file:// in some browsers, privacy modes): the forms then just forget.
    try {
      return window.localStorage;
    } catch (_error) {
      return null;
    }
  }

  /**
   * The first element `selector` finds, if it is what the script expects (else the feature stays off).
   * @template {Element} T
   * @param {string} selector
   * @param {{ new (): T }} type
   * @returns {T | null}
   */
  function find(selector, type) {
    const element = document.querySelector(selector);
    return element instanceof type ? element : null;
  }

  /**
   * @param {string} selector
   * @returns {HTMLElement[]}
   */
  function findAll(selector) {
    return Array.from(document.querySelectorAll(selector)).filter((element) => element instanceof HTMLElement);
  }

  /** @param {EventTarget | null} target */
  function isTyping(target) {
    return (
      target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))
    );
  }

  // Search: filters every method list on the page (the navigation, and the landing page's index) as you type.
  const searchForm = find('[data-search-form]', HTMLFormElement);
  const searchInput = find('#search', HTMLInputElement);
  const searchStatus = find('#search-status', HTMLElement);
  const navToggle = find('[data-nav-toggle]', HTMLDetailsElement);
  const wide = window.matchMedia('(min-width: 60em)');

  /** @param {string} selector */
  function methodNames(selector) {
    const names = new Set();
    document.querySelectorAll(selector).forEach((item) => {
      names.add(item.getAttribute('data-method'));
    });
    return names;
  }

  /**
   * @param {HTMLInputElement} searchInput
   * @param {HTMLElement} searchStatus
   */
  function applySearch(searchInput, searchStatus) {
    const words = searchInput.value.toLowerCase().split(/\s+/).filter(Boolean);
    findAll('[data-search]').forEach((item) => {
      const text = item.getAttribute('data-search') ?? '';
      item.hidden = !words.every((word) => text.indexOf(word) !== -1);
    });
    findAll('[data-search-group]').forEach((group) => {
      group.hidden = !group.querySelector('[data-search]:not([hidden]):not([data-out-of-release])');
    });
    const total = methodNames('[data-search]').size;
    const shown = methodNames('[data-search]:not([hidden]):not([data-out-of-release])').size;
    findAll('[data-no-match]').forEach((note) => {
      note.hidden = shown > 0;
    });
    const noun = total === 1 ? ' method' : ' methods';
    searchStatus.textContent = words.length === 0 ? total + noun : `${shown} of ${total}${noun} match`;
    if (words.length > 0 && navToggle) navToggle.open = true;
  }

  function firstMatch() {
    return find('nav [data-search]:not([hidden]):not([data-out-of-release]) a', HTMLAnchorElement);
  }

  if (searchForm && searchInput && searchStatus) {
    searchForm.hidden = false;
    searchInput.addEventListener('input', () => applySearch(searchInput, searchStatus));
    searchInput.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && searchInput.value) {
        searchInput.value = '';
        applySearch(searchInput, searchStatus);
      }
    });
    searchForm.addEventListener('submit', (event) => {
      event.preventDefault();
      const link = firstMatch();
      if (link) window.location.href = link.href;
    });
    document.addEventListener('keydown', (event) => {
      if (event.key === '/' && !event.ctrlKey && !event.metaKey && !event.altKey && !isTyping(event.target)) {
        event.preventDefault();
        searchInput.focus();
        searchInput.select();
      }
    });
  }

  // The release selector: the API as one AvalancheGo release had it. Methods it did not serve are marked (and left out
  // of the navigation); params, fields, result shapes and enum values it did not have are left out.
  const RELEASE_KEY = 'avalanche-openrpc.docs.release';
  const releaseForm = find('[data-release-form]', HTMLElement);
  const releaseSelect = find('[data-release-select]', HTMLSelectElement);
  const releaseStatus = find('[data-release-status]', HTMLElement);

  // A pre-release (`v1.15.0-fuji`) comes before its release, as generators/common/versions.ts orders them.
  /**
   * @param {string} a
   * @param {string} b
   */
  function compareReleases(a, b) {
    const [coreA = '', preA] = a.slice(1).split(/-(.*)/, 2);
    const [coreB = '', preB] = b.slice(1).split(/-(.*)/, 2);
    const x = coreA.split('.').map(Number);
    const y = coreB.split('.').map(Number);
    for (let i = 0; i < 3; i++) {
      const difference = (x[i] ?? 0) - (y[i] ?? 0);
      if (difference !== 0) return difference;
    }
    if (preA === preB) return 0;
    if (preA === undefined) return 1;
    if (preB === undefined) return -1;
    return preA < preB ? -1 : 1;
  }

  /**
   * Why `release` lacks the element, from its data-since / data-last / data-removed-in; '' when it has it.
   * @param {Element} element
   * @param {string} release
   */
  function lacks(element, release) {
    const since = element.getAttribute('data-since');
    const last = element.getAttribute('data-last');
    const removed = element.getAttribute('data-removed-in');
    if (since && compareReleases(release, since) < 0) return `served since ${since}`;
    if (removed && compareReleases(release, removed) >= 0) return `removed in ${removed}`;
    if (last && compareReleases(release, last) > 0) return `last served by ${last}`;
    return '';
  }

  /**
   * @param {HTMLSelectElement} releaseSelect
   * @param {HTMLElement} releaseStatus
   */
  function applyRelease(releaseSelect, releaseStatus) {
    const release = releaseSelect.value;
    let unserved = 0;
    document.querySelectorAll('[data-since], [data-last], [data-removed-in]').forEach((element) => {
      const why = release ? lacks(element, release) : '';
      if (element.classList.contains('method')) {
        element.classList.toggle('not-served', why !== '');
        const note = element.querySelector('[data-release-note]');
        if (note instanceof HTMLElement) {
          note.hidden = why === '';
          note.textContent = why ? `Not served by ${release} (${why}).` : '';
        }
        return;
      }
      if (why) element.setAttribute('data-out-of-release', '');
      else element.removeAttribute('data-out-of-release');
      if (why && element.hasAttribute('data-method')) unserved++;
    });
    releaseStatus.textContent = release
      ? `As of ${release}${unserved ? `: ${unserved} methods not served, left out of the list.` : '.'}`
      : 'Every release at once; each part says which releases have it.';
    const store = storage();
    if (store) store.setItem(RELEASE_KEY, release);
  }

  if (releaseForm && releaseSelect && releaseStatus) {
    releaseForm.hidden = false;
    // A link may name the release (?release=v1.10.5); else the reader's last choice.
    const asked = new URLSearchParams(window.location.search).get('release');
    const store = storage();
    let initial = asked ?? store?.getItem(RELEASE_KEY) ?? '';
    // A release between two the spec names has the API of the earlier one (v1.10.5 reads as v1.10.1's).
    const values = Array.from(releaseSelect.options, (option) => option.value);
    if (/^v\d+\.\d+\.\d+$/.test(initial))
      initial = values.filter((value) => value && compareReleases(value, initial) <= 0)[0] || '';
    if (values.indexOf(initial) !== -1) releaseSelect.value = initial;
    releaseSelect.addEventListener('change', () => applyRelease(releaseSelect, releaseStatus));
    applyRelease(releaseSelect, releaseStatus);
  }

  // The method list is folded on a phone and always open beside the page on a wide screen.
  function syncNavToggle() {
    if (navToggle && wide.matches) navToggle.open = true;
  }
  syncNavToggle();
  wide.addEventListener('change', syncNavToggle);

  /**
   * Copy buttons on every code block.
   * @param {HTMLElement} pre
   */
  function copyText(pre) {
    const text = pre.textContent ?? '';
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    const range = document.createRange();
    range.selectNodeContents(pre);
    const selection = window.getSelection();
    if (!selection) return Promise.reject(new Error('no selection'));
    selection.removeAllRanges();
    selection.addRange(range);
    const copied = document.execCommand('copy');
    return copied ? Promise.resolve() : Promise.reject(new Error('copy refused'));
  }

  findAll('pre[data-copy]').forEach((pre) => {
    const figure = pre.parentElement;
    if (!figure) return;
    const button = document.createElement('button');
    const caption = figure.querySelector('figcaption');
    button.type = 'button';
    button.className = 'copy';
    button.textContent = 'Copy';
    button.setAttribute('aria-label', `Copy ${caption ? caption.textContent : 'code'}`);
    button.addEventListener('click', () => {
      copyText(pre).then(
        () => {
          button.textContent = 'Copied';
        },
        () => {
          button.textContent = 'Press Ctrl+C';
        },
      );
      setTimeout(() => {
        button.textContent = 'Copy';
      }, 2000);
    });
    figure.insertBefore(button, pre);
  });

  // "Try it": posts the (editable) example request to a node the reader names and shows the answer as text.
  const store = storage();
  const savedNodeUrl = store?.getItem(NODE_URL_KEY);
  findAll('[data-try-it]').forEach((details) => {
    details.hidden = false;
  });
  if (savedNodeUrl) {
    document.querySelectorAll('[data-node-url]').forEach((input) => {
      if (input instanceof HTMLInputElement) input.value = savedNodeUrl;
    });
  }

  /**
   * @param {Element | null} output
   * @param {string} status
   * @param {string} [body]
   */
  function showAnswer(output, status, body) {
    if (!output) return;
    output.textContent = '';
    const line = document.createElement('p');
    line.textContent = status;
    output.appendChild(line);
    if (body !== undefined) {
      const pre = document.createElement('pre');
      pre.className = 'code';
      pre.textContent = body;
      output.appendChild(pre);
    }
  }

  /**
   * The value of the form's control `name` ('' when the page lacks it).
   * @param {HTMLFormElement} form
   * @param {string} name
   */
  function field(form, name) {
    const control = form.elements.namedItem(name);
    return control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement ? control.value : '';
  }

  /** @param {HTMLFormElement} form */
  function sendExample(form) {
    const output = form.querySelector('[data-try-output]');
    const baseUrl = field(form, 'baseUrl').trim().replace(/\/+$/, '');
    const url = baseUrl + field(form, 'path').trim();
    const body = field(form, 'body');
    try {
      JSON.parse(body);
    } catch (error) {
      // Only where: engines quote part of the text in their message, and the text may hold a password.
      const where = /position \d+|line \d+ column \d+/.exec(error instanceof Error ? error.message : '');
      showAnswer(output, `The request is not valid JSON${where ? ` (at ${where[0]})` : ''}.`);
      return;
    }
    if (store) store.setItem(NODE_URL_KEY, baseUrl);
    showAnswer(output, `Sending to ${url} ...`);
    const controller = new AbortController();
    const timer = setTimeout(() => {
      controller.abort();
    }, TIMEOUT_MS);
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body,
      signal: controller.signal,
    })
      .then((response) =>
        response.text().then((text) => {
          let shown = text;
          try {
            shown = JSON.stringify(JSON.parse(text), null, 2);
          } catch (_error) {
            // Not JSON: show the text as the node sent it.
          }
          showAnswer(output, `HTTP ${response.status} ${response.statusText}`, shown);
        }),
      )
      .catch((error) => {
        const reason = error.name === 'AbortError' ? `no answer within ${TIMEOUT_MS / 1000} s` : error.message;
        showAnswer(
          output,
          `Could not reach ${url} (${reason}). Is the node running, and does it allow requests from this page ` +
            '(--http-allowed-origins)?',
        );
      })
      .finally(() => {
        clearTimeout(timer);
      });
  }

  document.addEventListener('submit', (event) => {
    const form = event.target instanceof Element ? event.target.closest('[data-try-form]') : null;
    if (!(form instanceof HTMLFormElement)) return;
    event.preventDefault();
    sendExample(form);
  });
})();
