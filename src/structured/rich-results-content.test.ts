// Article, Breadcrumb, Q&A, Recipe, Video, Dataset, Profile page, Discussion forum and Image metadata,
// judged on items built in code.
import { describe, expect, it } from 'vitest';
import { at, entryOf, errorsOf, extraction, invalid, judge, missing, node, type NodeSpec, omit, short, typed, warningsOf, withValue } from './test-nodes.ts';

const required = (name: string) => `The required property ${name} is missing.`;

describe('Article', () => {
  const article = () =>
    node('Article', {
      headline: 'News', image: ['https://example.com/1x1.jpg', 'https://example.com/4x3.jpg'], datePublished: '2026-01-05T08:00:00+08:00',
      dateModified: '2026-02-05T09:20:00+08:00', author: node('Person', { name: 'Ann', url: 'https://example.com/ann' }),
    });

  it('finds nothing wrong with a complete article, of Article, NewsArticle and BlogPosting only', () => {
    for (const type of ['Article', 'NewsArticle', 'BlogPosting']) {
      expect(judge(typed(article(), [type]))).toEqual([expect.objectContaining({ feature: 'Article', type, valid: true, errors: [], warnings: [] })]);
    }
    expect(judge(typed(article(), ['TechArticle'])).map((entry) => entry.feature)).toEqual([]);
  });

  it('requires nothing: its findings are warnings, a missing author being one', () => {
    const entry = entryOf(node('NewsArticle'), 'Article');
    expect(entry.valid).toBe(true);
    expect(entry.warnings.map((warning) => warning.property)).toEqual(['author', 'dateModified', 'datePublished', 'headline', 'image']);
    expect(warningsOf(omit(article(), 'author.url'), 'Article')).toEqual([missing('author.url', 'The recommended property url is missing.')]);
  });

  it('warns about a wrong date or image', () => {
    const entry = entryOf(withValue(withValue(article(), 'datePublished', 'May 1, 2026'), 'image', node('ImageObject', { width: 800 })), 'Article');
    expect(entry.valid).toBe(true);
    expect(entry.warnings.map(short)).toEqual([
      invalid('datePublished', 'The property datePublished must be an ISO 8601 date or date-time.'),
      invalid('image', 'The property image must be a URL or an ImageObject with a url or contentUrl.'),
    ]);
  });

  it('does not judge an image nested in the article as Image metadata', () => {
    const withImage = withValue(article(), 'image', node('ImageObject', { contentUrl: 'https://example.com/a.jpg' }));
    expect(judge(withImage).map((entry) => entry.feature)).toEqual(['Article']);
  });
});

describe('Breadcrumb', () => {
  const crumb = (position: number | string, name: string, item?: string) => node('ListItem', item === undefined ? { position, name } : { position, name, item });
  const breadcrumb = () =>
    node('BreadcrumbList', { itemListElement: [crumb(1, 'Books', 'https://example.com/books'), crumb(2, 'Fiction', 'https://example.com/books/fiction'), crumb(3, 'Award winners')] });

  it('finds nothing wrong with a complete trail, the last ListItem without item', () => {
    expect(judge(breadcrumb())).toEqual([expect.objectContaining({ feature: 'Breadcrumb', type: 'BreadcrumbList', valid: true, errors: [], warnings: [] })]);
  });

  it('requires itemListElement, once', () => {
    expect(errorsOf(node('BreadcrumbList'), 'Breadcrumb')).toEqual([missing('itemListElement', required('itemListElement'))]);
  });

  it('requires position, name and (but on the last ListItem as written) item of each ListItem', () => {
    const list = node('BreadcrumbList', { itemListElement: [node('ListItem', {}, { id: '#a' }), node('ListItem', {}, { id: '#b' })] });
    expect(errorsOf(list, 'Breadcrumb')).toEqual([
      missing('itemListElement.position', required('position')),
      missing('itemListElement.position', required('position')),
      missing('itemListElement.name', 'The required property name (or item.name) is missing.'),
      missing('itemListElement.name', 'The required property name (or item.name) is missing.'),
      missing('itemListElement.item', required('item')),
    ]);
  });

  it('takes an item.name for the ListItem\'s name', () => {
    const named = node('BreadcrumbList', {
      itemListElement: [node('ListItem', { position: 1, item: node('WebPage', { name: 'Books' }, { id: 'https://example.com/books' }) }), crumb(2, 'Fiction')],
    });
    expect(errorsOf(named, 'Breadcrumb')).toEqual([]);
  });

  it('rejects a position that is no whole number of 1 or more, and an item that is no URL', () => {
    for (const position of ['first', 0, '1.5', -1]) {
      expect(errorsOf(node('BreadcrumbList', { itemListElement: [crumb(position as number, 'Books')] }), 'Breadcrumb')).toEqual([
        invalid('itemListElement.position', 'The property position must be a whole number, 1 or more.'),
      ]);
    }
    expect(errorsOf(node('BreadcrumbList', { itemListElement: [crumb('1', 'Books', 'books page'), crumb(2, 'x')] }), 'Breadcrumb')).toEqual([
      invalid('itemListElement.item', 'The property item must be a URL.'),
    ]);
    expect(errorsOf(node('BreadcrumbList', { itemListElement: [crumb(1, 'Books', 'books page')] }), 'Breadcrumb')).toEqual([
      invalid('itemListElement.item', 'The property item must be a URL.'),
    ]);
  });
});

describe('Q&A', () => {
  const answer = (text: string) => node('Answer', { text, url: 'https://example.com/q#a' });
  const qaPage = () =>
    node('QAPage', {
      mainEntity: node('Question', {
        name: 'How?', text: 'How do I?', answerCount: 2, datePublished: '2026-01-01', author: node('Person', { name: 'Q' }),
        acceptedAnswer: answer('Like this.'), suggestedAnswer: [answer('Or that.')],
      }),
    });

  it('finds nothing wrong with a complete page', () => {
    expect(entryOf(qaPage(), 'Q&A')).toMatchObject({ valid: true, errors: [], warnings: [] });
  });

  it.each([
    ['mainEntity'], ['mainEntity.name'], ['mainEntity.answerCount'], ['mainEntity.acceptedAnswer.text'], ['mainEntity.suggestedAnswer.text'],
  ])('requires %s', (property) => {
    expect(errorsOf(omit(qaPage(), property), 'Q&A')).toEqual([missing(property, required(property.split('.').at(-1)!))]);
  });

  it('requires one of acceptedAnswer or suggestedAnswer, either will do', () => {
    expect(errorsOf(omit(omit(qaPage(), 'mainEntity.acceptedAnswer'), 'mainEntity.suggestedAnswer'), 'Q&A')).toEqual([
      missing('mainEntity.acceptedAnswer|mainEntity.suggestedAnswer', 'One of acceptedAnswer or suggestedAnswer is required.'),
    ]);
    expect(errorsOf(omit(qaPage(), 'mainEntity.acceptedAnswer'), 'Q&A')).toEqual([]);
    expect(errorsOf(omit(qaPage(), 'mainEntity.suggestedAnswer'), 'Q&A')).toEqual([]);
  });

  it('rejects an answerCount that is no whole number, and an answer text that is no text', () => {
    expect(errorsOf(withValue(qaPage(), 'mainEntity.answerCount', 'two'), 'Q&A')).toEqual([
      invalid('mainEntity.answerCount', 'The property answerCount must be a whole number, 0 or more.'),
    ]);
    expect(errorsOf(withValue(qaPage(), 'mainEntity.acceptedAnswer.text', true), 'Q&A')).toEqual([
      invalid('mainEntity.acceptedAnswer.text', 'The property text must be non-empty text.'),
    ]);
  });
});

describe('Recipe', () => {
  const recipe = () =>
    node('Recipe', {
      name: 'Pie', image: 'https://example.com/pie.jpg', author: node('Person', { name: 'Ann' }), datePublished: '2026-05-01', description: 'A pie.',
      prepTime: 'PT20M', cookTime: 'PT1H', totalTime: 'PT1H20M', keywords: 'pie', recipeYield: '8', recipeCategory: 'Dessert', recipeCuisine: 'American',
      nutrition: node('NutritionInformation', { calories: '270 calories' }), recipeIngredient: ['2 cups flour'], recipeInstructions: [node('HowToStep', { text: 'Bake.' })],
      aggregateRating: node('AggregateRating', { ratingValue: 5, ratingCount: 18 }), video: node('VideoObject', { name: 'How to', thumbnailUrl: 'https://example.com/t.jpg', uploadDate: '2026-01-01' }),
    });

  it('finds nothing wrong with a complete recipe, judged as a Recipe and not as the retired HowTo', () => {
    expect(judge(recipe())).toEqual([expect.objectContaining({ feature: 'Recipe', valid: true, errors: [], warnings: [] })]);
  });

  it.each([['image'], ['name']])('requires %s', (property) => {
    expect(errorsOf(omit(recipe(), property), 'Recipe')).toEqual([missing(property, required(property))]);
  });

  it('warns about durations that are not ISO 8601, and about nutrition.calories only when nutrition is given', () => {
    expect(warningsOf(withValue(recipe(), 'cookTime', '1 hour'), 'Recipe')).toEqual([invalid('cookTime', 'The property cookTime must be an ISO 8601 duration.')]);
    expect(warningsOf(omit(recipe(), 'nutrition.calories'), 'Recipe')).toEqual([missing('nutrition.calories', 'The recommended property calories is missing.')]);
    expect(warningsOf(omit(recipe(), 'nutrition'), 'Recipe')).toEqual([]);
  });

  it('holds a present aggregateRating to its rows', () => {
    expect(errorsOf(withValue(recipe(), 'aggregateRating', node('AggregateRating', { ratingValue: 5 })), 'Recipe')).toEqual([
      missing('aggregateRating.ratingCount|aggregateRating.reviewCount', 'One of ratingCount or reviewCount is required.'),
    ]);
  });
});

describe('Video', () => {
  const video = () =>
    node('VideoObject', {
      name: 'Launch', description: 'The launch.', thumbnailUrl: ['https://example.com/1.jpg'], uploadDate: '2026-03-31T08:00:00+08:00',
      duration: 'PT1M54S', contentUrl: 'https://example.com/video.mp4',
    });

  it('finds nothing wrong with a complete video; embedUrl does for contentUrl', () => {
    expect(judge(video())).toEqual([expect.objectContaining({ feature: 'Video', valid: true, errors: [], warnings: [] })]);
    expect(warningsOf(withValue(omit(video(), 'contentUrl'), 'embedUrl', 'https://example.com/embed/1'), 'Video')).toEqual([]);
    expect(warningsOf(omit(video(), 'contentUrl'), 'Video')).toEqual([missing('contentUrl|embedUrl', 'One of contentUrl or embedUrl is recommended.')]);
  });

  it.each([['name'], ['thumbnailUrl'], ['uploadDate']])('requires %s', (property) => {
    expect(errorsOf(omit(video(), property), 'Video')).toEqual([missing(property, required(property))]);
  });

  it('rejects a thumbnailUrl that is no URL and an uploadDate that is no date; warns about a wrong duration', () => {
    expect(errorsOf(withValue(video(), 'thumbnailUrl', 'thumb nail.jpg'), 'Video')).toEqual([invalid('thumbnailUrl', 'The property thumbnailUrl must be a URL.')]);
    expect(errorsOf(withValue(video(), 'thumbnailUrl', node('ImageObject', { url: 'https://example.com/t.jpg' })), 'Video')).toEqual([
      invalid('thumbnailUrl', 'The property thumbnailUrl must be a URL.'),
    ]);
    expect(errorsOf(withValue(video(), 'uploadDate', '31.03.2026'), 'Video')).toEqual([invalid('uploadDate', 'The property uploadDate must be an ISO 8601 date or date-time.')]);
    expect(warningsOf(withValue(video(), 'duration', '1:54'), 'Video')).toEqual([invalid('duration', 'The property duration must be an ISO 8601 duration.')]);
  });
});

describe('Dataset', () => {
  const description = 'Storm events of the United States, 1950 to today, from the weather service.';
  const dataset = () =>
    node('Dataset', {
      name: 'Storms', description, creator: node('Organization', { name: 'NCDC' }), license: 'https://creativecommons.org/publicdomain/zero/1.0/',
      url: 'https://example.com/storms', distribution: node('DataDownload', { encodingFormat: 'CSV', contentUrl: 'https://example.com/storms.csv' }),
    });

  it('finds nothing wrong with a complete dataset; a license may be a CreativeWork', () => {
    expect(judge(dataset())).toEqual([expect.objectContaining({ feature: 'Dataset', valid: true, errors: [], warnings: [] })]);
    expect(warningsOf(withValue(dataset(), 'license', node('CreativeWork', { name: 'CC0', url: 'https://creativecommons.org/publicdomain/zero/1.0/' })), 'Dataset')).toEqual([]);
  });

  it.each([['name'], ['description']])('requires %s', (property) => {
    expect(errorsOf(omit(dataset(), property), 'Dataset')).toEqual([missing(property, required(property))]);
  });

  it('requires a description of 50 to 5000 characters', () => {
    const message = 'The property description must be 50 to 5000 characters long.';
    expect(errorsOf(withValue(dataset(), 'description', 'Storms.'), 'Dataset')).toEqual([invalid('description', message)]);
    expect(errorsOf(withValue(dataset(), 'description', 'x'.repeat(5001)), 'Dataset')).toEqual([invalid('description', message)]);
    expect(errorsOf(withValue(dataset(), 'description', 'x'.repeat(50)), 'Dataset')).toEqual([]);
    expect(errorsOf(withValue(dataset(), 'description', 'x'.repeat(5000)), 'Dataset')).toEqual([]);
    expect(errorsOf(withValue(dataset(), 'description', node('TextObject', { text: description })), 'Dataset')).toEqual([
      invalid('description', 'The property description must be non-empty text.'),
    ]);
  });

  it('warns about a license or url that is no URL', () => {
    expect(warningsOf(withValue(dataset(), 'license', 'public domain'), 'Dataset')).toEqual([invalid('license', 'The property license must be a URL.')]);
  });
});

describe('Profile page', () => {
  const profile = () =>
    node('ProfilePage', {
      dateCreated: '2024-12-23T12:34:00-05:00', dateModified: '2024-12-26T14:53:00-05:00',
      mainEntity: node('Person', {
        name: 'Ann', alternateName: 'ann', description: 'Writer.', identifier: '123', image: 'https://example.com/ann.jpg', sameAs: ['https://x.example/ann'],
      }),
    });

  it('finds nothing wrong with a complete profile, of a Person or an Organization (or a subtype)', () => {
    expect(judge(profile())).toEqual([expect.objectContaining({ feature: 'Profile page', valid: true, errors: [], warnings: [] })]);
    expect(errorsOf(withValue(profile(), 'mainEntity', node('Corporation', { name: 'Acme' })), 'Profile page')).toEqual([]);
  });

  it.each([['mainEntity'], ['mainEntity.name']])('requires %s', (property) => {
    expect(errorsOf(omit(profile(), property), 'Profile page')).toEqual([missing(property, required(property.split('.').at(-1)!))]);
  });

  it('rejects a mainEntity of another type', () => {
    expect(errorsOf(withValue(profile(), 'mainEntity', node('Product', { name: 'Shoe' })), 'Profile page')).toEqual([
      invalid('mainEntity', 'The property mainEntity must be a Person or an Organization.'),
    ]);
  });
});

describe('Discussion forum', () => {
  const posting = () =>
    node('DiscussionForumPosting', {
      headline: 'Hi', text: 'Hello all.', url: 'https://example.com/t/1', datePublished: '2026-01-01T10:00:00Z', dateModified: '2026-01-02',
      author: node('Person', { name: 'Ann', url: 'https://example.com/u/ann' }),
    });

  it('finds nothing wrong with a complete posting, of DiscussionForumPosting and SocialMediaPosting', () => {
    expect(judge(posting())).toEqual([expect.objectContaining({ feature: 'Discussion forum', valid: true, errors: [], warnings: [] })]);
    expect(judge(typed(posting(), ['SocialMediaPosting'])).map((entry) => entry.feature)).toEqual(['Discussion forum']);
  });

  it.each([['author'], ['author.name'], ['datePublished']])('requires %s', (property) => {
    expect(errorsOf(omit(posting(), property), 'Discussion forum')).toEqual([missing(property, required(property.split('.').at(-1)!))]);
  });

  it('requires one of text, image or video', () => {
    expect(errorsOf(omit(posting(), 'text'), 'Discussion forum')).toEqual([missing('text|image|video', 'One of text, image or video is required.')]);
    expect(errorsOf(withValue(omit(posting(), 'text'), 'image', 'https://example.com/p.png'), 'Discussion forum')).toEqual([]);
    expect(errorsOf(withValue(posting(), 'text', 12), 'Discussion forum')).toEqual([invalid('text', 'The property text must be non-empty text.')]);
  });

  it('rejects a datePublished that is no date', () => {
    expect(errorsOf(withValue(posting(), 'datePublished', 'today'), 'Discussion forum')).toEqual([
      invalid('datePublished', 'The property datePublished must be an ISO 8601 date or date-time.'),
    ]);
  });
});

describe('Image metadata', () => {
  const image = () =>
    node('ImageObject', {
      contentUrl: 'https://example.com/photo.jpg', license: 'https://example.com/license', acquireLicensePage: 'https://example.com/buy',
      creditText: 'Ann Photo', creator: node('Person', { name: 'Ann' }), copyrightNotice: '© Ann',
    });

  it('finds nothing wrong with complete metadata', () => {
    expect(judge(image())).toEqual([expect.objectContaining({ feature: 'Image metadata', valid: true, errors: [], warnings: [] })]);
  });

  it('requires contentUrl, and one of creator, creditText, copyrightNotice or license, recommending each not given', () => {
    expect(errorsOf(omit(image(), 'contentUrl'), 'Image metadata')).toEqual([missing('contentUrl', required('contentUrl'))]);
    const bare = node('ImageObject', { contentUrl: 'https://example.com/photo.jpg' });
    expect(errorsOf(bare, 'Image metadata')).toEqual([
      missing('creator|creditText|copyrightNotice|license', 'One of creator, creditText, copyrightNotice or license is required.'),
    ]);
    expect(warningsOf(bare, 'Image metadata').map((warning) => warning.property)).toEqual(['acquireLicensePage', 'creator', 'creditText', 'copyrightNotice', 'license']);
    expect(errorsOf(withValue(bare, 'creditText', 'Ann'), 'Image metadata')).toEqual([]);
  });

  it('reports a wrong license once, as an error', () => {
    const entry = entryOf(withValue(image(), 'license', at(9, 'see our terms')), 'Image metadata');
    expect(entry.errors).toEqual([{ kind: 'invalid_value', property: 'license', message: 'The property license must be a URL.', value: 'see our terms', line: 9 }]);
    expect(entry.warnings).toEqual([]);
  });

  it('rejects a contentUrl that is no URL', () => {
    expect(errorsOf(withValue(image(), 'contentUrl', 'photo .jpg'), 'Image metadata')).toEqual([invalid('contentUrl', 'The property contentUrl must be a URL.')]);
  });
});
